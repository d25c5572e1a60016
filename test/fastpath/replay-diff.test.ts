// A whole replay with the fast path against the same replay without it (decoder + evaluator for
// every packet): NDJSON, CSV and the written pcaps byte-identical, and the same report (rule hits,
// decisions, notes, counts), on synthetic captures of every kind of traffic the generator makes,
// plus one with a ruleset that reads a looked-up field (those packets fall back) and one with
// protection on (ATP's fields read from the bytes too; test/atp/fast-path-diff.test.ts goes further).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { CsvSink, NdjsonSink, PcapVerdictSink } from '../../src/sim/outputs/packet-sinks.js';
import { TextSink } from '../../src/sim/outputs/text-sink.js';
import { replayFile } from '../../src/sim/replay.js';
import type { Run } from '../../src/sim/run.js';
import { type Rule, rulesets } from './helpers.js';

let dir: string;
const captures: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-fast-replay-'));
  for (const scenario of ['mixed', 'syn-flood', 'ack-flood', 'geo']) {
    const file = path.join(dir, `${scenario}.pcap`);
    await generateToFile(scenario, file, { packets: 4000, seed: 3, labels: null });
    captures.push(file);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULES: Rule[] = [
  ['telnet', 'block', 'tcp.dstport in { 23 2323 }'],
  ['low-ttl', 'block', 'ip.ttl < 2'],
  ['syn', 'log', 'tcp.flags.syn and not tcp.flags.ack'],
  ['ping', 'log', 'icmp.type == 8'],
  ['web', 'skip', 'ip.dst in { 203.0.113.0/24 } and tcp.dstport in { 80 443 }'],
  ['udp-hi', 'block', 'udp.dstport > 1024'],
  ['v6', 'log', 'ip.src in { 2001:db8::/32 }'],
];
const LOOKUP: Rule[] = [...RULES.slice(0, 3), ['country', 'block', 'ip.src.country in { "CN" "RU" }'], ...RULES.slice(3)];

function snapshot(rules: Rule[], protection: boolean): Snapshot {
  return {
    tcp_protection_status: { enabled: protection },
    prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }],
    syn_protection: { rules: [{ scope: 'global', name: 'g', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
    rulesets: rulesets(rules),
  };
}

async function outputs(capture: string, snap: Snapshot, fastPath: boolean, tag: string) {
  // a replay with no per-packet output, and one with outputs: the same counts
  const counted = await replayFile(capture, snap, { useLabels: false, fastPath });
  const base = path.join(dir, `${path.basename(capture)}-${tag}-${fastPath}`);
  const sinks = ({ path: { firewall: fw } }: Run) => [
    new NdjsonSink(new TextSink(`${base}.ndjson`), fw),
    new CsvSink(new TextSink(`${base}.csv`), fw),
    new PcapVerdictSink(`${base}-drop.pcap`, true),
    new PcapVerdictSink(`${base}-pass.pcap`, false),
  ];
  const { report, warnings } = await replayFile(capture, snap, { sinks, useLabels: false, fastPath });
  const files = ['.ndjson', '.csv', '-drop.pcap', '-pass.pcap'].map((s) => readFileSync(`${base}${s}`));
  // which lane decided the frames differs by design; their count does not
  const untimed = (r: typeof report) => ({ ...r, elapsedSeconds: 0, packetsPerSecond: 0, engine: r.engine.compiled + r.engine.fallback });
  expect(untimed(counted.report), `${capture} ${tag} without outputs`).toEqual(untimed(report));
  return { report: untimed(report), warnings, files };
}

describe('replay with and without the fast path', () => {
  it('writes identical outputs and reports', async () => {
    for (const capture of captures) {
      for (const [tag, snap] of [['fw', snapshot(RULES, false)], ['lookup', snapshot(LOOKUP, false)], ['atp', snapshot(RULES, true)]] as const) {
        const slow = await outputs(capture, snap, false, tag);
        const fast = await outputs(capture, snap, true, tag);
        expect(fast.report, `${capture} ${tag}`).toEqual(slow.report);
        expect(fast.warnings).toEqual(slow.warnings);
        fast.files.forEach((f, i) => expect(Buffer.compare(f, slow.files[i]), `${capture} ${tag} output ${i}`).toBe(0));
        expect(slow.report.packets).toBe(4000);
      }
    }
  });
});
