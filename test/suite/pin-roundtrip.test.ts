// Packet cases accept what `edgesim inspect` prints: every frame of the demo capture, inspected,
// pasted into a case (its line as it is) and built, inspects to the same fields; and without its
// raw bytes (`ip`, `tcp`, ...), from the fields alone with the transport bytes' payload, to the same
// named fields (IPv4 options included).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PacketRecord } from '../../src/capture/record.js';
import { recordFields } from '../../src/fields/render.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { parsePacket } from '../../src/suite/packet-spec.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { ROOT } from '../helpers/cli.js';

const LOOKED_UP = ['ip.src.country', 'ip.dst.country', 'ip.src.asnum', 'ip.dst.asnum', 'cf.colo.name', 'cf.colo.region'];
const RAW = ['ip', 'tcp', 'udp', 'icmp'];

function built(fields: Record<string, unknown>): Record<string, unknown> {
  const rec = new PacketRecord();
  new PacketBuilder().build(parsePacket(parseSuiteText('case', JSON.stringify(fields))), rec);
  return recordFields(rec);
}

function without(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

/** The transport payload of an inspected line: its transport bytes after the header. */
function payloadOf(line: Record<string, unknown>): string | undefined {
  const bytes = (line.tcp ?? line.udp ?? line.icmp) as string | undefined;
  if (bytes === undefined) return undefined;
  const b = bytes.split(':');
  const header = line.tcp !== undefined ? (parseInt(b[12]!, 16) >> 4) * 4 : 8;
  return b.length > header ? b.slice(header).join(':') : undefined;
}

describe('inspect -> case -> inspect', () => {
  const lines = execFileSync(process.execPath, [path.join(ROOT, 'bin/edgesim.js'), 'inspect', path.join(ROOT, 'examples/demo.pcap')], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a pasted line builds the packet it came from, for every frame of the demo capture', () => {
    expect(lines.length).toBe(4526);
    for (const line of lines) {
      const fields = without(line, ['note']);
      expect(without(built(fields), LOOKED_UP), `frame ${String(line.frame)}`).toEqual(without(fields, ['frame', 'time', ...LOOKED_UP]));
    }
  });

  it('the named fields alone, with the payload, build the same fields for every frame', () => {
    for (const line of lines) {
      const payload = payloadOf(line);
      const fields = { ...without(line, ['note', ...RAW]), ...(payload === undefined ? {} : { payload }) };
      expect(without(built(fields), [...LOOKED_UP, ...RAW]), `frame ${String(line.frame)}`).toEqual(without(fields, ['frame', 'time', 'payload', ...LOOKED_UP]));
    }
  });
});
