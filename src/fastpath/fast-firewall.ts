// The firewall's fast path: one generated function per ruleset that decides a frame from its bytes
// (generate.ts), for the packets it can read simply, and says FALLBACK for the others, which then go
// through the decoder and Firewall.evaluate as before. Both write the same FirewallResult and count
// into the same hit and decision counters, so a replay's results do not depend on which one decided
// a packet (test/fastpath/ compares them over the tcpdump corpus and over random rules and packets).
//
// Rulesets of INDEX_FROM enabled rules or more get a candidate index (index-plan.ts): per packet,
// only the rules whose port or address condition the packet meets are tested. Below that, testing
// every rule is faster than consulting the index.
import type { Enrichment } from '../data/enrichment.js';
import type { Firewall } from '../firewall/firewall.js';
import type { Ast } from '../lang/index.js';
import type { IpSet } from '../net/ip-set.js';
import { Constants, writeCondition } from './conditions.js';
import { type FrameDecider, type GeneratedRule, generateDecider } from './generate.js';
import { FELL_REASONS } from './headers.js';
import { LookupRecord } from './lookup-record.js';
import { planIndex } from './index-plan.js';

export { FALLBACK, NOT_IP } from './headers.js';

export const INDEX_FROM = 150;

export interface FastPathOptions {
  /** resolves `$name` lists, as given to Firewall.compile */
  lists?: (name: string) => IpSet | undefined;
  /** true: always index; false: never; default: from INDEX_FROM enabled rules */
  index?: boolean;
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
  /** why the last FALLBACK: a Fell code or a rule's index (generate.ts) */
  private readonly why: Int32Array;
  /** the reason of each rule the fast path cannot evaluate, by the rule's index */
  private readonly ruleReasons: ReadonlyMap<number, string>;

  private constructor(decide: FrameDecider, ipHeader: Int32Array, why: Int32Array, ruleReasons: ReadonlyMap<number, string>) {
    this.decide = decide;
    this.ipHeader = ipHeader;
    this.why = why;
    this.ruleReasons = ruleReasons;
  }

  /** Why decide() last returned FALLBACK: "rule <ref>: field … not compiled", "decode note", "VLAN tag", … */
  fallbackReason(): string {
    const code = this.why[0];
    return code >= 0 ? this.ruleReasons.get(code)! : FELL_REASONS[code]!;
  }

  static compile(firewall: Firewall, opts: FastPathOptions = {}): FastFirewall {
    const k = new Constants();
    const asts: Ast[] = [];
    const rules: GeneratedRule[] = [];
    const ruleReasons = new Map<number, string>();
    for (let i = 0; i < firewall.rules.length; i++) {
      const r = firewall.rules[i];
      if (!r.enabled) continue;
      const ast = firewall.syntax[i];
      asts.push(ast);
      const condition = writeCondition(ast, opts.lists, k, i);
      if ('notCompiled' in condition) ruleReasons.set(i, `rule ${r.ref}: ${condition.notCompiled}`);
      rules.push({
        index: i,
        condition,
        terminating: r.action !== 'log',
        drop: r.action === 'block',
      });
    }
    const indexed = opts.index ?? rules.length >= INDEX_FROM;
    const index = indexed ? (groupOf: Int32Array, bitOf: Int32Array, groups: number) => planIndex(asts, groupOf, bitOf, groups) : null;
    const ipHeader = new Int32Array(1);
    const why = new Int32Array(1);
    return new FastFirewall(generateDecider(rules, k, firewall.hits, firewall.decided, index, ipHeader, why, new LookupRecord(opts.enrichment), opts.headers ?? null), ipHeader, why, ruleReasons);
  }
}
