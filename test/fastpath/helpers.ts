// Runs a capture through the reference path (decoder + Firewall.evaluate, the oracle) and through the
// fast path (generated per-frame function, falling back to the reference path per packet, reading
// the rules it does not write on the decoded frame), and returns each run's per-packet NDJSON (the
// replay's own sink) and rule counters.
import fc from 'fast-check';
import { readFrames } from '../../src/capture/reader.js';
import type { Ruleset } from '../../src/config/snapshot.js';
import type { Enrichment } from '../../src/data/enrichment.js';
import { FastFirewall } from '../../src/fastpath/fast-firewall.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { validateExpression } from '../../src/lang/index.js';
import { type IpSet, IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { NdjsonSink } from '../../src/sim/outputs/packet-sinks.js';
import type { TextSink } from '../../src/sim/outputs/text-sink.js';
import { CompiledPath } from '../../src/sim/compiled-path.js';
import { decideFrame } from '../../src/sim/decide-frame.js';
import { Lane } from '../../src/sim/lane.js';
import { Run as PathRun } from '../../src/sim/run.js';

/**
 * Rule expressions built from `leaf` comparisons with and, or, xor (parenthesised) and not, small depth
 * first; only those the API takes for a rule (validateExpression: its length and complexity limits).
 * Nested xors multiply the terms: of 840,000 drawn the most complex had 256, the limit itself, and one
 * over it makes the firewall refuse the whole ruleset ("ruleset exceeds complexity constraints", as the
 * large-ruleset property of properties.test.ts once failed). Any other error is the generator's, and
 * thrown.
 */
export function expressionOf(leaf: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(tie('e'), fc.constantFrom('and', 'or', 'xor'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
        tie('e').map((e) => `not ${e}`),
      ),
    }))
    .e.filter((e) => {
      const error = validateExpression(e, 'rule');
      if (error !== null && error.code !== 'too_complex' && error.code !== 'too_long') throw error;
      return error === null;
    });
}

export type Rule = readonly [ref: string, action: 'block' | 'skip' | 'log', expression: string, enabled?: boolean];

const bad = new IpSetBuilder().addPrefix4(parseIPv4('10.0.0.0'), 8).addPrefix4(parseIPv4('192.168.0.0'), 16).addPrefix6(parseIPv6('2001:db8::')!, 32).build();
/** `$bad`: 10.0.0.0/8, 192.168.0.0/16, 2001:db8::/32 */
export const lists = (name: string) => (name === 'bad' ? bad : undefined);

/** Rules that read every field the fast path reads, in every kind of comparison (most log, so all are tested). */
export const FIELDS: Rule[] = [
  ['src-set', 'log', 'ip.src in {10.0.0.0/8 192.168.0.0/16 2001:db8::/32 fe80::/10}'],
  ['v4-set', 'log', 'ip.dst in {192.168.0.0/16 10.0.0.0/8 224.0.0.0/4} or not ip.src in {172.16.0.0/12}'],
  ['v4-many', 'log', 'ip.src in {10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 100.64.0.0/10 198.18.0.0/15 224.0.0.0/4 1.1.1.1}'],
  ['v6-set', 'log', 'ip.src in {fe80::/10 2001:db8::/32} or not ip.dst in {ff00::/8}'],
  ['dst-eq', 'log', 'ip.dst == 192.168.1.1 or ip.dst == ::1 or ip.src != 10.0.0.1'],
  ['v6-ne', 'log', 'ip.dst != fe80::1 and ip.src >= 10.0.0.0 and ip.src <= 10.255.255.255'],
  ['v6-order', 'log', 'ip.dst > fe80:: or ip.src < 1.0.0.0'],
  ['proto', 'log', 'ip.proto == "tcp"'],
  ['proto-set', 'log', 'ip.proto in {"udp" "icmp" "ipv6-icmp"} or ip.proto matches "^g"'],
  ['len-ttl', 'log', 'ip.len > 100 and ip.ttl < 64'],
  ['len-40', 'log', 'ip.len > 40'],
  ['len-60', 'log', 'ip.len <= 60 or ip.len in {84 1000..1600}'],
  ['hdr-opt', 'log', 'ip.hdr_len > 5 or ip.opt.type != 0'],
  ['syn', 'log', 'tcp.flags.syn and not tcp.flags.ack'],
  ['flag-bits', 'log', 'tcp.flags & 0x12 or tcp.flags.fin or tcp.flags.reset or tcp.flags.push or tcp.flags.urg or tcp.flags.ecn or tcp.flags.cwr'],
  ['udp-ports', 'log', 'udp.dstport in {53 123 5060 1900..2000} or udp.srcport == 53'],
  ['icmp', 'log', 'icmp.type == 8 or icmp.code != 0'],
  ['raw', 'log', 'tcp contains "HTTP" or udp contains 00:01 or icmp == 08:00 or ip > 45:00'],
  ['bit-slice', 'log', 'bit_slice(ip, 0, 4) == 4 and bit_slice(tcp, 104, 112) > 16'],
  ['sip', 'log', 'sip or udp.dstport == 5060'],
  ['list', 'log', 'ip.src in $bad xor ip.dst in $bad'],
  ['ports', 'log', 'tcp.dstport in {80 443 8080} or tcp.srcport in {1..1023}'],
  ['wild', 'log', 'tcp wildcard "*http*" or udp in {"abc" 00:35}'],
  ['regex', 'log', 'tcp matches "HTTP/1\\.[01]" or udp matches "^.{8}\\x00"'],
  ['telnet', 'block', 'tcp.dstport == 23'],
  ['skip-web', 'skip', 'tcp.srcport == 80 and ip.len < 1000'],
  ['dns', 'block', 'udp.dstport == 53 and ip.ttl > 1'],
  ['v6-block', 'block', 'ip.src in {2001:db8::/32}'],
];

export function rulesets(rules: readonly Rule[]): Ruleset[] {
  return [{
    name: 'test',
    kind: 'root',
    phase: 'edge_transit',
    rules: rules.map(([ref, action, expression, enabled]) => ({ ref, action, expression, ...(enabled === false ? { enabled } : {}), ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) })),
  }];
}

export interface Run {
  ndjson: string;
  hits: number[];
  decided: number[];
  /** packets the fast path decided (0 for the reference run) */
  fast: number;
  /** why each packet the fast path did not decide fell back (Run.fallbackReason), in frame order */
  fallbackReasons: string[];
  /** packets the fast path decided reading some rules on the decoded frame */
  decoded: number;
  /** why each of those rules was read there (Run.decodedReason), in frame order */
  decodedReasons: string[];
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
  /** the lists the fast path is compiled with, when not `lists`: a rule on a list it does not know is not compiled (conditions.ts) */
  fastLists?: (name: string) => IpSet | undefined;
  /** run the fast path (FastPathOptions.index: every rule tested, through the classifier, or through the key index), or the reference path alone */
  mode: 'reference' | 'none' | 'classifier' | 'keys';
  /** the lookups of both paths (looked-up fields are absent without) */
  enrichment?: Enrichment;
}

export async function run(file: string, rules: readonly Rule[], opts: RunOptions): Promise<Run> {
  const firewall = Firewall.compile(rulesets(rules), { lists: opts.lists });
  const mode = opts.mode;
  const reference = mode === 'reference';
  const program = mode === 'reference' ? undefined : FastFirewall.compile(firewall, { lists: opts.fastLists ?? opts.lists, index: mode, enrichment: opts.enrichment });
  const path = new CompiledPath({ firewall, enrichment: opts.enrichment, lists: opts.lists, program });
  const pathRun = new PathRun(path, { record: reference });
  const out = new Collector();
  const sink = new NdjsonSink(out as unknown as TextSink, firewall);
  let fast = 0;
  const fallbackReasons: string[] = [];
  let decoded = 0;
  const decodedReasons: string[] = [];
  let error: string | null = null;
  try {
    await readFrames(file, (frame) => {
      const verdict = decideFrame(frame, path, pathRun);
      if (verdict.lane === Lane.COMPILED) {
        fast++;
        const rules = pathRun.decodedRules();
        if (rules > 0) decoded++;
        for (let i = 0; i < rules; i++) decodedReasons.push(pathRun.decodedReason(i));
      } else if (!reference) fallbackReasons.push(pathRun.fallbackReason()!);
      sink.packet(verdict);
    });
  } catch (err) {
    error = (err as Error).message;
  }
  return { ndjson: out.text, hits: Array.from(pathRun.tally.hits), decided: Array.from(pathRun.tally.decided), fast, fallbackReasons, decoded, decodedReasons, error };
}
