// Runs a capture through the reference path (decoder + Firewall.evaluate, the oracle) and through the
// fast path (generated per-frame function, falling back to the reference path per packet), and
// returns each run's per-packet NDJSON (the replay's own sink) and rule counters.
import { readCapture } from '../../src/capture/reader.js';
import type { Ruleset } from '../../src/config/snapshot.js';
import { FastDecoding } from '../../src/fastpath/fast-decoding.js';
import { FastFirewall } from '../../src/fastpath/fast-firewall.js';
import { Firewall } from '../../src/firewall/firewall.js';
import type { IpSet } from '../../src/net/ip-set.js';
import { NdjsonSink } from '../../src/sim/outputs/packet-sinks.js';
import type { TextSink } from '../../src/sim/outputs/text-sink.js';
import { PacketPath } from '../../src/sim/packet-path.js';

export type Rule = readonly [ref: string, action: 'block' | 'skip' | 'log', expression: string];

export function rulesets(rules: readonly Rule[]): Ruleset[] {
  return [{
    name: 'test',
    kind: 'root',
    phase: 'edge_transit',
    rules: rules.map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) })),
  }];
}

export interface Run {
  ndjson: string;
  hits: number[];
  decided: number[];
  /** packets the fast path decided (0 for the reference run) */
  fast: number;
  error: string | null;
}

class Collector {
  text = '';
  write(s: string): void {
    this.text += s;
  }
  close(): void {}
}

export interface RunOptions {
  lists?: (name: string) => IpSet | undefined;
  /** run the fast path (with or without the index), or the reference path alone */
  mode: 'reference' | 'linear' | 'indexed';
}

export async function run(file: string, rules: readonly Rule[], opts: RunOptions): Promise<Run> {
  const firewall = Firewall.compile(rulesets(rules), { lists: opts.lists });
  const path = new PacketPath({ firewall });
  const verdict = path.newVerdict();
  const out = new Collector();
  const sink = new NdjsonSink(out as unknown as TextSink, firewall);
  const fastDecoding = opts.mode === 'reference' ? null : new FastDecoding(FastFirewall.compile(firewall, { lists: opts.lists, index: opts.mode === 'indexed' }), verdict.firewall);
  let fast = 0;
  let error: string | null = null;
  try {
    await readCapture(file, (rec) => {
      if (fastDecoding?.decided === true) {
        fast++;
        verdict.setFromFirewall();
      } else path.process(rec, verdict);
      sink.packet(rec, verdict);
    }, { decodeFrame: fastDecoding?.decodeFrame });
  } catch (err) {
    error = (err as Error).message;
  }
  return { ndjson: out.text, hits: Array.from(firewall.hits), decided: Array.from(firewall.decided), fast, error };
}
