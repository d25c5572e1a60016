// Synthetic capture generation: how fast `edgesim synth` writes a million packets (pcap + label
// sidecar, to a temporary file, page cache warm), for the mixed scenario (full TCP sessions with
// payloads, DNS, QUIC, pings, floods) and for a SYN flood (small packets: per-packet overhead),
// and the pcap writer alone. deps.md §9 measured a standalone Node generator at 5.3 s and 957 MB
// for a comparable 1M-packet mixed file; the figure to compare is the seconds row.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PcapWriter } from '../src/capture/pcap-writer.js';
import { generateToFile } from '../src/capture/synth/index.js';
import type { BenchRow, BenchSuite } from './types.js';

const PACKETS = 1_000_000;

async function timeScenario(dir: string, scenario: string): Promise<BenchRow[]> {
  const out = path.join(dir, `${scenario}.pcap`);
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const r = await generateToFile(scenario, out, { packets: PACKETS, seed: 1 });
  const seconds = (performance.now() - t0) / 1000;
  const mb = statSync(out).size / 1e6;
  const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
  rmSync(out);
  rmSync(`${out}.labels.ndjson`);
  const note = `${r.packets.toLocaleString('en-US')} packets, ${mb.toFixed(0)} MB pcap, plus its label sidecar`;
  return [
    { suite: 'synth', name: `${scenario}: 1M packets, seconds`, value: seconds, unit: 's', note },
    { suite: 'synth', name: `${scenario}: generation rate`, value: r.packets / seconds, unit: 'packets/s', note: `${(mb / seconds).toFixed(0)} MB/s of pcap; RSS grew ${rssMb.toFixed(0)} MB` },
  ];
}

async function timeWriter(dir: string): Promise<BenchRow> {
  const out = path.join(dir, 'writer.pcap');
  const frame = new Uint8Array(200).fill(0xab);
  const t0 = performance.now();
  const w = PcapWriter.open(out);
  for (let i = 0; i < PACKETS; i++) w.write(frame, 1_700_000_000 + (i >>> 14), (i & 0x3fff) * 1000);
  await w.close();
  const seconds = (performance.now() - t0) / 1000;
  rmSync(out);
  return { suite: 'synth', name: 'pcap writer: 200-byte records', value: PACKETS / seconds, unit: 'records/s', note: `1M records, ${(216 / seconds).toFixed(0)} MB/s` };
}

export const suite: BenchSuite = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-bench-synth-'));
  try {
    return [...(await timeScenario(dir, 'mixed')), ...(await timeScenario(dir, 'syn-flood')), await timeWriter(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
