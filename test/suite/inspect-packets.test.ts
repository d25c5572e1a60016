// What can be decoded can be written: every IP packet `edgesim inspect` prints from a real capture (the
// tcpdump corpus: many link types, tunnels, truncated, oversized and malformed packets) is a valid
// suite packet, built into a frame that reads back as the same fields and is decided the same way on
// the same path as the captured frame — as printed, and without its raw bytes (`ip`, `tcp`, `udp`,
// `icmp`, which a person shortening the line removes first; but for a non-first fragment, whose
// transport fields no line without bytes can leave out: a packet of that protocol gets its defaults).
// Before, ICMP errors with a short ip.len, packets longer than 2 KB, BIG TCP packets (ip.len above
// 65,535) and truncated captures were refused or built otherwise.
import { describe, expect, it } from 'vitest';
import { decodeInto } from '../../src/capture/decode/link-up.js';
import { Frame } from '../../src/capture/frame.js';
import { readFrames } from '../../src/capture/reader.js';
import { Has, PacketRecord } from '../../src/capture/record.js';
import { inspectFields } from '../../src/fields/render.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { LOOKUP_FIELDS } from '../../src/fields/lookups.js';
import { CompiledPath } from '../../src/sim/compiled-path.js';
import { decideFrame } from '../../src/sim/decide-frame.js';
import { Run } from '../../src/sim/run.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { parsePacket } from '../../src/suite/packet-spec.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { FIELDS, lists, rulesets } from '../fastpath/helpers.js';

const RAW = ['ip', 'tcp', 'udp', 'icmp'];
const TRANSPORT_OF: Readonly<Record<string, string>> = { tcp: 'tcp', udp: 'udp', icmp: 'icmp', 'ipv6-icmp': 'icmp' };

/** A non-first fragment: its protocol is a transport whose header is not there (the decoder gives it none of its fields), though room for it is. */
function fragment(line: Record<string, unknown>): boolean {
  const transport = TRANSPORT_OF[String(line['ip.proto'])];
  return transport !== undefined && line.note === undefined && !Object.keys(line).some((k) => k.startsWith(`${transport}.`));
}
/** rules that read the raw bytes, which a line without them does not carry */
const READS_RAW = new Set(['raw', 'bit-slice', 'wild', 'regex']);

/** A path over every field (most rules log, so each is tried on every packet); the decoder's lane, so each packet's record is read whole. */
function pathOf(withRaw: boolean): CompiledPath {
  return new CompiledPath({ firewall: Firewall.compile(rulesets(FIELDS.filter(([ref]) => withRaw || !READS_RAW.has(ref))), { lists }), lists });
}

interface Inspected {
  line: Record<string, unknown>;
  decision: string;
}

function decision(v: ReturnType<typeof decideFrame>): string {
  return JSON.stringify([v.drop, v.rule, v.matchedRefs()]);
}

/** Each IP packet of a capture as inspect prints it (frame number, then its fields), and its decision on `path`. */
async function inspected(file: string, path: CompiledPath): Promise<Inspected[]> {
  const out: Inspected[] = [];
  const run = new Run(path, { record: true });
  await readFrames(file, (frame) => {
    const v = decideFrame(frame, path, run);
    if ((v.record.present & Has.IP) === 0) return;
    out.push({ line: { frame: frame.number, ...inspectFields(v.record) }, decision: decision(v) });
  }).catch(() => undefined); // a capture that cannot be read at all prints nothing
  return out;
}

/** Builds `line` as a suite packet and decides it on `path`: the fields it reads back as, and its decision. */
function rebuilt(line: Record<string, unknown>, path: CompiledPath): { fields: Record<string, unknown>; decision: string } {
  const frame = new Frame();
  new PacketBuilder().build(parsePacket(parseSuiteText('inspected.yaml', JSON.stringify(line))), frame);
  const rec = new PacketRecord();
  decodeInto(rec, frame);
  return { fields: inspectFields(rec), decision: decision(decideFrame(frame, path, new Run(path, { record: true }))) };
}

/** The line's fields a rebuilt packet must read back as: all but the frame's number, the note, and looked-up fields (they come from the addresses). */
function comparable(fields: Record<string, unknown>, withRaw: boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([k]) => k !== 'frame' && k !== 'note' && !LOOKUP_FIELDS.has(k) && (withRaw || !RAW.includes(k))));
}

describe('every packet inspect prints from the corpus is a suite packet that decides the same way', () => {
  for (const withRaw of [true, false]) {
    it(withRaw ? 'as printed' : 'without its raw bytes', async () => {
      const path = pathOf(withRaw);
      const failures: string[] = [];
      let packets = 0;
      for (const name of corpusFiles()) {
        for (const { line, decision: want } of await inspected(corpusPath(name), path)) {
          if (!withRaw && fragment(line)) continue;
          packets++;
          const given = withRaw ? line : Object.fromEntries(Object.entries(line).filter(([k]) => !RAW.includes(k)));
          try {
            const got = rebuilt(given, path);
            const differs = JSON.stringify(comparable(got.fields, withRaw)) !== JSON.stringify(comparable(line, withRaw)) || got.decision !== want;
            if (differs) failures.push(`${name} frame ${String(line.frame)}: ${JSON.stringify(comparable(got.fields, withRaw))} ${got.decision}`);
          } catch (err) {
            failures.push(`${name} frame ${String(line.frame)}: ${(err as Error).message}`);
          }
        }
      }
      expect(packets).toBeGreaterThan(5000);
      expect(failures.slice(0, 10)).toEqual([]);
    });
  }
});
