// The firewall's fast path: one generated function per ruleset that decides a frame from its bytes
// (generate.ts), for the packets it can read simply, and says FALLBACK for the others, which then go
// through the decoder and Firewall.evaluate as before. A rule whose condition it does not write is
// tested by the firewall's own predicate on the frame decoded once, on the first ask (frame-record.ts).
// Both write the same FirewallResult and count into the same hit and decision counters, so a replay's
// results do not depend on which one decided a packet (test/fastpath/ compares them over the tcpdump
// corpus and over random rules and packets).
//
// Rulesets of INDEX_FROM enabled rules or more get a packet classifier (classifier.ts): per packet,
// only the rules whose required port and address values the packet has are tested. Where the key
// index (index-plan.ts: each rule filed under one required port set or address block) leaves no
// packet more than FEW_FILED rules filed under its keys, the key index is taken instead, its
// lookups being cheaper; so too where the classifier would pass its memory bound. Below INDEX_FROM,
// testing every rule is faster than classifying the packet.
import type { Enrichment } from '../data/enrichment.js';
import type { Firewall } from '../firewall/firewall.js';
import type { IpSet } from '../net/ip-set.js';
import { Constants, writeCondition } from './conditions.js';
import { type FrameDecider, type GeneratedRule, generateDecider } from './generate.js';
import { FELL_REASONS } from './headers.js';
import { FrameRecord, onDecodedRecord } from './frame-record.js';
import { mostFiledUnderKeys, planIndex } from './index-plan.js';
import { planClassifier } from './classifier.js';
import { type Admitted, requiredValues, type SortedField } from './conjuncts.js';

export { FALLBACK, NOT_IP } from './headers.js';

export const INDEX_FROM = 150;
/**
 * Measured (Node 24.21): the key index was the faster where a packet's keys filed at most 7 rules
 * (the bench's 1,000 rules: 1.18x less whole-process CPU time), the classifier where they filed 22
 * or 25 (985 per-customer rules over overlapping CIDR sets: 2-3x less).
 */
const FEW_FILED = 16;

/** How rules are picked for a packet (FastPathOptions.index). */
export type RulePicking = 'classifier' | 'keys' | 'none';

export interface FastPathOptions {
  /** resolves `$name` lists, as given to Firewall.compile */
  lists?: (name: string) => IpSet | undefined;
  /**
   * how rules are picked for a packet: 'classifier' (the key index where the classifier would pass
   * its memory bound), 'keys' (the key index alone), 'none' (every rule tested); default: from
   * INDEX_FROM enabled rules, 'keys' where its keys file no packet more than FEW_FILED rules, else
   * 'classifier'; below, 'none'
   */
  index?: RulePicking;
  /** the packet path's lookups, for the rules that compare looked-up fields (absent without) */
  enrichment?: Enrichment;
  /** where each decided IP frame's transport offset, ip.len and TCP presence are left (generate.ts HeaderAt), for ATP */
  headers?: Int32Array;
}

export class FastFirewall {
  /**
   * Decides the frame d[off, end) of link type `linkType` (origLen bytes on the wire) into `out`:
   * FALLBACK (-1) when it cannot, NOT_IP (0) for a frame without IP (passes, no rule tested), or the
   * IP version (4 or 6). Never allocates.
   */
  readonly decide: FrameDecider;
  /** where the IP header of the last frame decide() read as IP starts (an offset into its bytes) */
  readonly ipHeader: Int32Array;
  /** why the last FALLBACK: a Fell code (headers.ts) */
  private readonly why: Int32Array;
  /** the reason of each rule whose condition the fast path does not write, by the rule's index */
  private readonly ruleReasons: ReadonlyMap<number, string>;
  /** the frame's record the generated function fills when a rule asks (frame-record.ts) */
  private readonly frame: FrameRecord;
  /** how rules are picked for a packet: the classifier, the key index, or none (every rule tested) */
  readonly picking: RulePicking;

  private constructor(decide: FrameDecider, ipHeader: Int32Array, why: Int32Array, ruleReasons: ReadonlyMap<number, string>, frame: FrameRecord, picking: RulePicking) {
    this.picking = picking;
    this.decide = decide;
    this.ipHeader = ipHeader;
    this.why = why;
    this.ruleReasons = ruleReasons;
    this.frame = frame;
  }

  /** Why decide() last returned FALLBACK: "decode note", "link type". */
  fallbackReason(): string {
    return FELL_REASONS[this.why[0]]!;
  }

  /** For how many rules the last frame decide() decided was decoded (rules whose conditions the fast path does not write). */
  decodedRules(): number {
    return this.frame.decodedRules();
  }

  /** Why the i-th of them (0 ≤ i < decodedRules()) was read on the decoded frame: "rule <ref>: field … not compiled". */
  decodedReason(i: number): string {
    return this.ruleReasons.get(this.frame.decodedRule(i))!;
  }

  static compile(firewall: Firewall, opts: FastPathOptions = {}): FastFirewall {
    const k = new Constants();
    const required: Array<ReadonlyMap<SortedField, Admitted>> = [];
    const rules: GeneratedRule[] = [];
    const ruleReasons = new Map<number, string>();
    for (let i = 0; i < firewall.rules.length; i++) {
      const r = firewall.rules[i];
      if (!r.enabled) continue;
      const ast = firewall.syntax[i];
      required.push(requiredValues(ast, opts.lists));
      const written = writeCondition(ast, opts.lists, k, i);
      if ('notCompiled' in written) ruleReasons.set(i, `rule ${r.ref}: ${written.notCompiled}`);
      rules.push({
        index: i,
        condition: 'notCompiled' in written ? onDecodedRecord(firewall.predicates[i], i, k) : written,
        terminating: r.action !== 'log',
        drop: r.action === 'block',
      });
    }
    let picking = opts.index ?? (rules.length < INDEX_FROM ? 'none' : mostFiledUnderKeys(required) <= FEW_FILED ? 'keys' : 'classifier');
    const index = picking === 'none' ? null
      : (groupOf: Int32Array, bitOf: Int32Array, groups: number) => {
        const classifier = picking === 'classifier' ? planClassifier(required, groupOf, bitOf, groups) : null;
        if (classifier !== null) return classifier;
        picking = 'keys';
        return planIndex(required, groupOf, bitOf, groups);
      };
    const ipHeader = new Int32Array(1);
    const why = new Int32Array(1);
    const frame = new FrameRecord(opts.enrichment, firewall.rules.length);
    const decide = generateDecider(rules, k, firewall.hits, firewall.decided, index, ipHeader, why, frame, opts.headers ?? null);
    return new FastFirewall(decide, ipHeader, why, ruleReasons, frame, picking);
  }
}
