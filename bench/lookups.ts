// Looked-up fields inside a replay (issue 38: countries, ASNs and data centres per packet at <= 60 ns):
// bench/replay.ts's 1M-packet `mixed` capture (sources from every country's address blocks, floods
// from random addresses) replayed in process through four rules that read the source and destination
// country, the source ASN (a GeoLite2-ASN style database of 20,000 random prefixes, written here) and
// the ingress region, each rule's looked-up test first so every packet is looked up, against the same
// four rules with a header test of the same shape in its place; the difference per packet is what the
// lookups cost. In turns, CPU time, medians.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateToFile } from '../src/capture/synth/index.js';
import type { Snapshot } from '../src/config/snapshot.js';
import { formatIPv4 } from '../src/net/ipv4.js';
import { replayFile } from '../src/sim/replay.js';
import { writeMmdb, type MmdbValue } from '../test/data/helpers/mmdb-writer.js';
import { cpuSeconds, median } from './cpu-time.js';
import type { BenchRow, BenchSuite } from './types.js';

const PACKETS = 1_000_000;
const ROUNDS = 7;

const LOOKED_UP = [
  'ip.src.country in { "KP" "IR" "SY" }',
  'ip.src.asnum in { 64496 64511 } and tcp.dstport == 22',
  'cf.colo.region == "APAC" and tcp.dstport == 3389',
  'ip.dst.country == "RU" and udp.dstport == 53',
];
const HEADERS = ['ip.ttl in { 1 2 3 }', 'ip.len == 7 and tcp.dstport == 22', 'ip.ttl == 3 and tcp.dstport == 3389', 'ip.len == 9 and udp.dstport == 53'];

function snapshot(expressions: string[]): Snapshot {
  return { rulesets: [{ name: 'lookups', kind: 'root', phase: 'edge_transit', rules: expressions.map((expression, i) => ({ ref: `r${i}`, action: 'block', expression })) }] };
}

/** an ASN database of `n` random IPv4 prefixes (/12 to /24), from a fixed seed */
function asnDatabase(file: string, n: number): void {
  let x = 38;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
  const entries: Array<[string, MmdbValue]> = [];
  for (let i = 0; i < n; i++) {
    const len = 12 + (next() % 13);
    const a = (next() & ((0xffffffff << (32 - len)) >>> 0)) >>> 0;
    entries.push([`${formatIPv4(a)}/${len}`, { autonomous_system_number: 64496 + (i % 1000), autonomous_system_organization: `AS ${i % 1000}` }]);
  }
  writeFileSync(file, writeMmdb({ ipVersion: 6, recordSize: 24, databaseType: 'GeoLite2-ASN', entries }));
}


export const suite: BenchSuite = async () => {
  const capture = path.join(os.tmpdir(), `edgesim-bench-mixed-${PACKETS}.pcap`);
  if (!existsSync(capture)) await generateToFile('mixed', capture, { packets: PACKETS, seed: 1, labels: null });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-lookups-'));
  try {
    const asnPath = path.join(dir, 'asn.mmdb');
    asnDatabase(asnPath, 20_000);
    const times: [number[], number[]] = [[], []];
    let compiled = 0;
    for (let round = 0; round < ROUNDS; round++) {
      times[0].push(await cpuSeconds(() => replayFile(capture, snapshot(HEADERS), { useLabels: false, asnPath })));
      times[1].push(
        await cpuSeconds(async () => {
          const { report } = await replayFile(capture, snapshot(LOOKED_UP), { useLabels: false, asnPath });
          compiled = report.engine.compiled / (report.engine.compiled + report.engine.fallback);
        }),
      );
    }
    const perPacket = ((median(times[1]) - median(times[0])) / PACKETS) * 1e9;
    return [
      {
        suite: 'lookups',
        name: 'looked-up fields per packet in a replay (2 countries, ASN, region)',
        value: perPacket,
        unit: 'ns',
        note: `1,000,000-packet mixed capture, in process, 4 rules reading them against 4 header rules of the same shape: ${median(times[1]).toFixed(3)} s against ${median(times[0]).toFixed(3)} s, medians of ${ROUNDS} in turns, CPU time, Node ${process.version}; ${(100 * compiled).toFixed(0)}% of frames on the compiled path; target <= 60 ns`,
      } satisfies BenchRow,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
