// Many rules of one shape (issue 38: 1,000 rules of any shape within 2x the time of 10): the 1M-packet
// `mixed` capture of the replay suite replayed in process through 990 rules of one shape that the
// capture's traffic does not match, then the replay suite's 10 rules, against the 10 rules alone; in
// turns, CPU time, medians. A shape is what rule writers write: ports, negations, TCP flags and
// lengths, an `or` across fields, payload matches, lists. The rulesets are exported for whole-process
// measurements (`edgesim replay --config` of a snapshot written from shapeSnapshot).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateToFile } from '../src/capture/synth/index.js';
import type { Snapshot } from '../src/config/snapshot.js';
import { replayFile } from '../src/sim/replay.js';
import { cpuSeconds, median } from './cpu-time.js';
import { RULES } from './replay.js';
import type { BenchRow, BenchSuite } from './types.js';

const PACKETS = 1_000_000;
const ROUNDS = 5;
const SHAPE_RULES = 990;

const hex = (n: number) => n.toString(16).padStart(2, '0');

/** the k-th rule of each shape (k < SHAPE_RULES) */
export const SHAPES: Readonly<Record<string, (k: number) => string>> = {
  ports: (k) => `tcp.dstport == ${10000 + k} and ip.ttl < 30`,
  negations: (k) => `not ip.src in { 100.${k % 256}.${k >> 8}.0/24 } and not tcp.dstport in { 1 2 3 } and ip.ttl == ${200 + (k % 56)} and tcp.dstport == ${20000 + k}`,
  'flags and lengths': (k) => `tcp.flags == ${k % 32} and ip.len == ${1000 + k}`,
  'or across fields': (k) => `(tcp.dstport == ${30000 + k} or udp.srcport == ${30000 + k}) and ip.len > ${60 + k}`,
  payload: (k) => `udp.dstport == 53 and udp contains ${hex(k >> 8)}:${hex(k & 255)}:ff:00:${hex(k % 7)}`,
  lists: (k) => `ip.src in $cust${k % 99} and tcp.dstport in { 8000 ${8001 + (k % 50)} }`,
};

/** 99 customer lists of 8 /24s each in 172.16.0.0/12, which the capture's sources do not use */
function customerLists(): NonNullable<Snapshot['lists']> {
  return Array.from({ length: 99 }, (_, i) => ({
    name: `cust${i}`,
    kind: 'ip' as const,
    description: `customer ${i}`,
    items: Array.from({ length: 8 }, (_, j) => ({ ip: `172.${16 + ((i * 8 + j) >> 8) % 16}.${(i * 8 + j) & 255}.0/24` })),
  }));
}

/** The snapshot of `shape`'s 990 rules then the 10 rules, or the 10 rules alone (shape null); protection off. */
export function shapeSnapshot(shape: string | null): Snapshot {
  const head = shape === null ? [] : Array.from({ length: SHAPE_RULES }, (_, k) => ({ ref: `${shape.replace(/ /g, '-')}-${k}`, action: 'block' as const, expression: SHAPES[shape]!(k) }));
  const tail = RULES.map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) }));
  return {
    lists: shape === 'lists' ? customerLists() : [],
    tcp_protection_status: { enabled: false },
    rulesets: [{ name: 'bench', kind: 'root', phase: 'edge_transit', rules: [...head, ...tail] }],
  };
}

export const suite: BenchSuite = async () => {
  const capture = path.join(os.tmpdir(), `edgesim-bench-mixed-${PACKETS}.pcap`);
  if (!existsSync(capture)) await generateToFile('mixed', capture, { packets: PACKETS, seed: 1, labels: null });
  const variants = [null, ...Object.keys(SHAPES)];
  const snapshots = variants.map(shapeSnapshot);
  const times: number[][] = variants.map(() => []);
  const compiled: number[] = variants.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, snap] of snapshots.entries()) {
      times[i]!.push(
        await cpuSeconds(async () => {
          const { report } = await replayFile(capture, snap, { useLabels: false });
          compiled[i] = report.engine.compiled / (report.engine.compiled + report.engine.fallback);
        }),
      );
    }
  }
  const ten = median(times[0]!);
  const rows: BenchRow[] = [{ suite: 'rules', name: '10 rules, in process (CPU time)', value: ten, unit: 's', note: `${PACKETS.toLocaleString('en-US')}-packet mixed capture, median of ${ROUNDS}` }];
  for (const [i, shape] of variants.entries()) {
    if (shape === null) continue;
    const t = median(times[i]!);
    const spread = `${(Math.min(...times[i]!) / ten).toFixed(2)}-${(Math.max(...times[i]!) / ten).toFixed(2)}`;
    rows.push({ suite: 'rules', name: `1,000 rules (${shape}) vs 10 rules (CPU ratio)`, value: t / ten, unit: 'x', note: `${SHAPES[shape]!(7)}: ${t.toFixed(3)} s, median of ${ROUNDS} (${spread}); ${(100 * compiled[i]!).toFixed(0)}% compiled; goal <= 2x` });
  }
  return rows;
};
