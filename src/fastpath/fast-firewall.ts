// The firewall's compiled program: one generated function per ruleset that decides a frame from its
// bytes (generate.ts), for the packets it can read simply, and says FALLBACK for the others, which
// then take the decoder's lane (sim/decide-frame.ts). A rule whose condition it does not write is
// tested by the firewall's own predicate on the frame decoded once, on the first ask (frame-record.ts).
// Both lanes write the same FirewallResult and count into the same run's hit and decision counts, so
// a replay's results do not depend on which one decided a packet (test/fastpath/ compares them over
// the tcpdump corpus and over random rules and packets). The program is immutable: what it writes of
// a frame goes into its run's ProgramResult.
//
// Rulesets of INDEX_FROM enabled rules or more get a packet classifier (classifier.ts): per packet,
// only the rules whose required port and address values the packet has are tested. Where the key
// index (index-plan.ts: each rule filed under keys rule-keys.ts chooses) leaves no
// packet more than FEW_FILED rules filed under its keys, the key index is taken instead, its
// lookups being cheaper; so too where the classifier would pass its memory bound. Below INDEX_FROM,
// testing every rule is faster than classifying the packet.
import type { Enrichment } from '../data/enrichment.js';
import { FirewallResult, type Firewall, type RuleCounts } from '../firewall/firewall.js';
import type { IpSet } from '../net/ip-set.js';
import type { Ast } from '../lang/index.js';
import { Constants, writeCondition } from './conditions.js';
import { type FrameDecider, type FrameResult, type GeneratedRule, generateDecider, generateHeaders } from './generate.js';
import { FrameRecord, onDecodedRecord } from './frame-record.js';
import { mostFiledUnderKeys, planIndex } from './index-plan.js';
import { planClassifier } from './classifier.js';
import { type Admitted, requiredValues, type SortedField } from './conjuncts.js';
import { fileRules, filingChoices } from './rule-keys.js';
import { containsRequirement, narrowedRules, withPayloadFilter } from './payload-filter.js';

export { FALLBACK, NOT_IP, PROGRAM_LINK_TYPES } from './headers.js';

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
}

/** A run's result on the compiled lane: the firewall's, and what the program leaves of the frame it read (FrameResult). */
export class ProgramResult extends FirewallResult implements FrameResult {
  l3 = 0;
  l4 = 0;
  l3e = 0;
  ipLen = 0;
  tcp = 0;
  readonly frame: FrameRecord;

  constructor(counts: RuleCounts, program: FastFirewall) {
    super(counts);
    this.frame = new FrameRecord(program.enrichment, counts.hits.length);
  }
}

export class FastFirewall {
  /**
   * Decides the frame d[off, end) of link type `linkType` (one of PROGRAM_LINK_TYPES; origLen bytes
   * on the wire) into `out`: FALLBACK (-1) when it cannot, NOT_IP (0) for a frame without IP
   * (passes, no rule tested), or the IP version (4 or 6). Never allocates.
   */
  readonly decide: FrameDecider;
  /** Reads the same frame's headers alone, as decide() does, and leaves their places in `out` (generate.ts generateHeaders). */
  readonly headers: FrameDecider;
  /** the reason of each rule whose condition the program does not write, by the rule's index */
  private readonly ruleReasons: ReadonlyMap<number, string>;
  /** how rules are picked for a packet: the classifier, the key index, or none (every rule tested) */
  readonly picking: RulePicking;

  private constructor(
    decide: FrameDecider,
    ruleReasons: ReadonlyMap<number, string>,
    picking: RulePicking,
    /** the lookups a rule's looked-up field is filled by (the run's FrameRecord asks them) */
    readonly enrichment: Enrichment | undefined,
  ) {
    this.picking = picking;
    this.decide = decide;
    this.headers = generateHeaders();
    this.ruleReasons = ruleReasons;
  }

  /** Why rule `index` is read on the decoded frame: "rule <ref>: field … not compiled". */
  decodedReason(index: number): string {
    return this.ruleReasons.get(index)!;
  }

  static compile(firewall: Firewall, opts: FastPathOptions = {}): FastFirewall {
    const k = new Constants();
    const required: Array<ReadonlyMap<SortedField, Admitted>> = [];
    const syntax: Ast[] = [];
    const rules: GeneratedRule[] = [];
    const ruleReasons = new Map<number, string>();
    for (let i = 0; i < firewall.rules.length; i++) {
      const r = firewall.rules[i];
      if (!r.enabled) continue;
      const ast = firewall.syntax[i];
      required.push(requiredValues(ast, opts.lists));
      syntax.push(ast);
      const written = writeCondition(ast, opts.lists, k, i);
      if ('notCompiled' in written) ruleReasons.set(i, `rule ${r.ref}: ${written.notCompiled}`);
      rules.push({
        index: i,
        condition: 'notCompiled' in written ? onDecodedRecord(firewall.predicates[i], i, k) : written,
        terminating: r.action !== 'log',
        drop: r.action === 'block',
      });
    }
    // what the key index files each rule under, worked out only where an index may be built
    const indexed = opts.index === undefined ? rules.length >= INDEX_FROM : opts.index !== 'none';
    const filed = indexed ? fileRules(syntax.map((ast) => filingChoices(ast, opts.lists))) : [];
    const payloads = indexed ? syntax.map(containsRequirement) : [];
    // rules the payload filter narrows cost a packet a bit test, not a test of their own: they do
    // not count against the key index
    const narrowed = narrowedRules(payloads);
    const keysLeave = () => mostFiledUnderKeys(filed.map((f, i) => (narrowed[i] ? null : f)));
    let picking = opts.index ?? (rules.length < INDEX_FROM ? 'none' : keysLeave() <= FEW_FILED ? 'keys' : 'classifier');
    const index = picking === 'none' ? null
      : (groupOf: Int32Array, bitOf: Int32Array, groups: number) => {
        let planned = picking === 'classifier' ? planClassifier(required, groupOf, bitOf, groups) : null;
        if (planned === null) {
          picking = 'keys';
          planned = planIndex(filed, groupOf, bitOf, groups);
        }
        return withPayloadFilter(planned, payloads, groupOf, bitOf, groups);
      };
    const decide = generateDecider(rules, k, index);
    return new FastFirewall(decide, ruleReasons, picking, opts.enrichment);
  }
}
