// What code scanning shows of each kind of lint finding: a full description, help with the fix
// (text and Markdown), tags, the precision of the proof and, for the findings that leave traffic
// decided otherwise than the rules say (a protection that never applies), a security severity
// (GitHub's 0.1–10 scale: 4–6.9 is "medium"). Also what of a rule each kind is about: its
// expression, the rule, or its ruleset, so a finding points at that place in the user's file.
import { FINDING_KINDS, type FindingKind } from '../analysis/index.js';
import type { RulePart } from '../config/location.js';

export interface FindingRule {
  /** what the finding says, in full */
  description: string;
  /** how to fix it (one paragraph of text; the Markdown adds an example) */
  fix: string;
  example?: string;
  tags: string[];
  /** GitHub's security severity, for findings that are security problems */
  securitySeverity?: number;
  /** the part of the rule the finding points at (absent: the ruleset, or an ATP filter) */
  part?: RulePart;
}

const PROOF = 'edgesim proves this over every possible packet of the network-firewall phase.';

export const FINDING_RULES: Readonly<Record<FindingKind, FindingRule>> = {
  unmatchable: {
    description: `The rule's expression matches no packet at all, so the rule never acts: a block rule written this way protects nothing. ${PROOF}`,
    fix: 'Correct the expression (often two conditions on the same field joined with `and`, or a list with no items), or remove the rule.',
    example: '`tcp.dstport == 22 and tcp.dstport == 23` matches nothing; `tcp.dstport in {22 23}` is what was meant.',
    tags: ['security', 'correctness', 'firewall'],
    securitySeverity: 5.0,
    part: 'expression',
  },
  unreachable: {
    description: `Earlier enabled block or skip rules decide every packet this rule matches, so it never decides one. When one of them acts otherwise (different_action), the rule's intent is not what the ruleset does. ${PROOF}`,
    fix: 'Move the rule above the rules named in blocked_by, narrow those rules, or remove this one if it is redundant.',
    example: '`block tcp.dstport == 23 and ip.ttl < 64` after `block tcp.dstport == 23` never decides a packet.',
    tags: ['security', 'correctness', 'firewall'],
    securitySeverity: 5.0,
    part: 'rule',
  },
  indeterminate: {
    description:
      'Parts the analysis does not model (regular expressions, byte strings, functions) or its work limit (10,000 steps a rule) leave the rule neither proved dead nor given a packet it decides. This is not a problem in itself; edgesim never guesses.',
    fix: 'Nothing to fix. To have the rule proved, write the unmodelled condition with fields and sets where the rule allows it, or test it with a suite case.',
    tags: ['firewall', 'analysis-limit'],
    part: 'expression',
  },
  negated_protocol_field: {
    description:
      "`!=` or `not` on a transport field also matches packets that do not have that transport: `tcp.dstport != 22` is true for every UDP and ICMP packet, which a block rule then drops too.",
    fix: 'Say the protocol as well: `tcp and tcp.dstport != 22` matches only TCP packets to other ports.',
    example: '`block tcp.dstport != 22` drops all UDP; `block tcp and tcp.dstport != 22` drops only TCP.',
    tags: ['security', 'correctness', 'firewall'],
    securitySeverity: 4.0,
    part: 'expression',
  },
  impossible_comparison: {
    description: 'A comparison in the expression can never be true (a value the field never takes: `ip.proto == "TCP"`, a lowercase country code, a port above 65535), so that part of the rule never matches.',
    fix: 'Use a value the field takes: protocol names are lowercase (`ip.proto == "tcp"`), country codes uppercase, ports up to 65535.',
    tags: ['security', 'correctness', 'firewall'],
    securitySeverity: 4.0,
    part: 'expression',
  },
  empty_list: {
    description: 'The rule uses a list with no items, so that condition matches no address.',
    fix: 'Add the list\'s items (or the `cloudflare_list_item` resources), or remove the condition.',
    tags: ['security', 'correctness', 'firewall'],
    securitySeverity: 3.0,
    part: 'expression',
  },
  unknown_list: {
    description: 'The rule uses a list that the configuration does not define, so edgesim cannot say what the rule matches; an account without that list cannot deploy the rule.',
    fix: 'Define the list in the configuration (or give it to edgesim with --config or --lists), or correct its name.',
    tags: ['correctness', 'firewall'],
    part: 'expression',
  },
  atp_filter_never_applies: {
    description: 'An Advanced TCP Protection filter applies to no packet: its expression matches nothing in the protected space, or a stronger filter of the same component takes every packet it would.',
    fix: 'Correct the filter\'s expression to match protected prefixes, or remove the filter.',
    tags: ['security', 'correctness', 'advanced-tcp-protection'],
    securitySeverity: 5.0,
  },
  expression_too_long: {
    description: 'The rule\'s expression is longer than the 4,096 characters the API takes once it is written on one line: the plan passes and the apply fails.',
    fix: 'Split the rule in two, or move long sets of addresses into a list (`ip.src in $name`).',
    tags: ['correctness', 'deploy'],
    part: 'expression',
  },
  logging_not_on_skip: {
    description: '`logging` is set on a rule whose action is not `skip`; the API refuses it when the ruleset is deployed.',
    fix: 'Remove `logging` from the rule, or make it a skip rule.',
    tags: ['correctness', 'deploy'],
    part: 'rule',
  },
  allow_action: {
    description: 'A rule\'s action is `allow`, which rulesets of this phase do not take (block, skip, log); the API refuses it when the ruleset is deployed.',
    fix: 'Use `skip` with `action_parameters { ruleset = "current" }`, which is what allow meant.',
    tags: ['correctness', 'deploy'],
    part: 'rule',
  },
  ruleset_at_zone_level: {
    description: 'A magic_transit ruleset has a `zone_id`: the phase exists at account level only, and the API refuses the ruleset.',
    fix: 'Give the ruleset an `account_id` instead of a `zone_id`.',
    tags: ['correctness', 'deploy'],
  },
  ruleset_kind_not_root: {
    description: 'A magic_transit ruleset whose kind is not `root`: the API refuses it.',
    fix: 'Set `kind = "root"`; an account has one entry-point ruleset for the phase.',
    tags: ['correctness', 'deploy'],
  },
  field_of_other_phase: {
    description: 'The expression uses a field of another phase (HTTP fields such as http.request.uri.path); a network-firewall rule cannot read it and the API refuses the rule.',
    fix: 'Use layer 3/4 fields (ip.*, tcp.*, udp.*, icmp.*), or move the rule to a ruleset of the phase the field belongs to.',
    tags: ['correctness', 'deploy'],
    part: 'expression',
  },
  too_many_rules: {
    description: 'The ruleset has more rules than the account may hold (200 by default); the API refuses it when it is deployed.',
    fix: 'Merge rules (sets of ports or addresses in one rule, lists for addresses), or give edgesim the account\'s raised limit with --max-rules.',
    tags: ['correctness', 'deploy'],
  },
};

/** Each kind's rule for code scanning, with the summary analysis/findings.ts gives it. */
export function findingRule(kind: FindingKind): FindingRule & { summary: string } {
  return { ...FINDING_RULES[kind], summary: FINDING_KINDS[kind].summary };
}
