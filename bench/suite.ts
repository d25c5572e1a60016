// `edgesim test` on a suite of a few thousand packet cases against the demo configuration (protection
// on, GeoIP lookups on): loading and checking the suite, and running it, as cases per second; beside
// it, in the same run, the replay of the demo capture, so the cost of a packet case (build the frame,
// decode it, fresh protection state, decide) reads as a ratio to the cost of a replayed packet. Then
// what `--coverage` costs a capture case: a 200,000-packet `mixed` capture through the realistic
// 40-rule ruleset (realistic-rulesets.ts: lists, countries, a data-center region, a payload test, a
// bit_slice), run with and without coverage in turns, CPU time (issue 34's target: at most 2x).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadSnapshotFile } from '../src/config/load.js';
import { replayFile } from '../src/sim/replay.js';
import { loadSuite } from '../src/suite/load.js';
import { runSuites } from '../src/suite/run.js';
import { generateToFile } from '../src/capture/synth/index.js';
import { RunCoverage } from '../src/suite/coverage.js';
import { PARTNER_LISTS, realisticRuleset } from './realistic-rulesets.js';
import type { BenchRow, BenchSuite } from './types.js';

const CASES = 3000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A deterministic mix: TCP to the web and SSH ports, DNS, pings, from many sources. */
function packet(i: number): Record<string, unknown> {
  const src = `198.51.${(i >> 8) & 255}.${i & 255}`;
  switch (i % 4) {
    case 0:
      return { 'ip.src': src, 'tcp.dstport': 443 };
    case 1:
      return { 'ip.src': src, 'ip.dst': '203.0.113.5', 'tcp.dstport': 22 };
    case 2:
      return { 'ip.src': src, 'ip.dst': '198.51.100.53', 'udp.dstport': 53 };
    default:
      return { 'ip.src': src, 'icmp.type': 8 };
  }
}

const EXPECTED = ['pass', 'drop', 'pass', 'pass'];

export const suite: BenchSuite = async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-suite-'));
  const file = path.join(dir, 'suite.yaml');
  const cases = Array.from({ length: CASES }, (_, i) => ({ name: `case ${i}`, packet: packet(i), expect: { verdict: EXPECTED[i % 4] } }));
  writeFileSync(file, stringify({ config: path.join(root, 'examples/demo-snapshot.json'), cases }));

  const t0 = process.hrtime.bigint();
  const loaded = await loadSuite(file);
  const t1 = process.hrtime.bigint();
  const results = await runSuites([loaded]);
  const t2 = process.hrtime.bigint();
  const failed = results.filter((r) => r.status !== 'passed');
  if (failed.length > 0) throw new Error(`bench suite: ${failed.length} cases did not pass, e.g. ${failed[0]!.name}: ${failed[0]!.message}`);
  const load = Number(t1 - t0) / 1e9;
  const run = Number(t2 - t1) / 1e9;

  const { report } = await replayFile(path.join(root, 'examples/demo.pcap'), await loadSnapshotFile(path.join(root, 'examples/demo-snapshot.json')), { useLabels: false });
  const perReplayed = report.elapsedSeconds / report.packets;
  const perCase = run / CASES;
  const rows: BenchRow[] = [
    { suite: 'suite', name: `edgesim test: load and check ${CASES} packet cases`, value: load, unit: 's', note: 'YAML parse, field checks, defaults' },
    { suite: 'suite', name: `edgesim test: run ${CASES} packet cases`, value: CASES / run, unit: 'cases/s', note: `${run.toFixed(3)} s; demo config, protection and GeoIP on` },
    { suite: 'suite', name: 'cost of a packet case / cost of a replayed packet', value: perCase / perReplayed, unit: 'x', note: `${(perCase * 1e6).toFixed(1)} us vs ${(perReplayed * 1e6).toFixed(2)} us (demo.pcap, same run)` },
  ];
  rows.push(...(await coverageRows(dir)));
  return rows;
};

const COVERED_PACKETS = 200_000;

/** CPU milliseconds of `f`. */
async function cpuMs(f: () => Promise<unknown>): Promise<number> {
  const t = process.cpuUsage();
  await f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

async function coverageRows(dir: string): Promise<BenchRow[]> {
  const capture = path.join(dir, 'mixed.pcap');
  await generateToFile('mixed', capture, { packets: COVERED_PACKETS, seed: 1, labels: null });
  const rules = realisticRuleset(25).map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) }));
  const config = path.join(dir, 'realistic.json');
  writeFileSync(config, JSON.stringify({ rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules }], lists: PARTNER_LISTS }));
  const file = path.join(dir, 'capture.yaml');
  writeFileSync(file, stringify({ config, cases: [{ name: 'capture', capture, expect: { totals: { packets: COVERED_PACKETS } } }] }));
  const run = async (coverage: boolean): Promise<void> => {
    const results = await runSuites([await loadSuite(file)], coverage ? { coverage: new RunCoverage() } : {});
    if (results[0]?.status !== 'passed') throw new Error(`bench suite: the capture case did not pass: ${results[0]?.message}`);
  };
  const plain: number[] = [];
  const covered: number[] = [];
  for (let i = 0; i < 4; i++) {
    plain.push(await cpuMs(() => run(false)));
    covered.push(await cpuMs(() => run(true)));
  }
  // the first of each warms the process up
  const median = (xs: number[]): number => [...xs.slice(1)].sort((a, b) => a - b)[1]!;
  return [
    { suite: 'suite', name: `edgesim test: a ${COVERED_PACKETS.toLocaleString('en-US')}-packet capture case, realistic 40 rules`, value: median(plain), unit: 'ms', note: 'CPU time, median of 3 after a warm-up, in turns with --coverage' },
    { suite: 'suite', name: 'the same with --coverage / without', value: median(covered) / median(plain), unit: 'x', note: `${median(covered).toFixed(0)} ms with coverage; target <= 2x (issue 34)` },
  ];
}
