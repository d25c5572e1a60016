// Ruleset versioning and rule placement, as the vendor's Rulesets API behaves (the HTTP routes
// that call these are routes/rulesets.ts):
// - every change (create excepted) makes a new ruleset version; older versions stay readable;
// - a rule keeps its id and version while its definition is unchanged, and takes the new ruleset
//   version when it changes; moving a rule does not change it;
// - a rule's `ref` defaults to its id; a `skip` rule saved without `logging` is stored with
//   `{"enabled": true}` (the vendor's observed behaviour; other actions never carry `logging`);
// - a ruleset answers with its phase in the spelling the client wrote (`magic_transit` or
//   `edge_transit`), though it is stored in the canonical one;
// - `position` places a rule: {before: id} ("" = first), {after: id} ("" = last), or {index: n}
//   (1-based; later rules shift down); exactly one of them.
// The history keeps the last MAX_HISTORY versions (the vendor keeps all; a mock need not grow forever).
import type { Ruleset, RulesetRule } from '../config/snapshot.js';
import { ApiError } from './errors.js';
import { hexId } from './ids.js';
import type { RulesetVersion, StoredRuleset } from './state.js';

export const MAX_HISTORY = 100;

/** Where to put a rule (add or move). */
export interface Position {
  before?: string;
  after?: string;
  index?: number;
}

const DEFINITION = ['ref', 'action', 'action_parameters', 'expression', 'description', 'enabled', 'logging'] as const;

function sameDefinition(a: RulesetRule, b: RulesetRule): boolean {
  return DEFINITION.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function orderedRule(rule: RulesetRule): RulesetRule {
  const { id, ref, version, action, action_parameters, expression, description, enabled, logging, last_updated } = rule;
  const out: RulesetRule = { id, ref, version, action, action_parameters, expression, description, enabled, logging, last_updated };
  for (const key of Object.keys(out) as Array<keyof RulesetRule>) if (out[key] === undefined) delete out[key];
  return out;
}

/**
 * Stored rules for a new ruleset version from validated incoming rules. A rule that carries an id
 * must name a rule of `previous`; it keeps that identity (and its version, when unchanged).
 */
export function settleRules(incoming: readonly RulesetRule[], previous: readonly RulesetRule[], version: string, now: string): RulesetRule[] {
  const byId = new Map(previous.map((r) => [r.id, r]));
  return incoming.map((sent, i) => {
    const rule = sent.action === 'skip' && sent.logging === undefined ? { ...sent, logging: { enabled: true } } : sent;
    if (rule.id !== undefined) {
      const old = byId.get(rule.id);
      if (!old) throw new ApiError('unknown_reference', `rules[${i}].id: no rule with id ${JSON.stringify(rule.id)} in this ruleset`, `/rules/${i}/id`);
      const next = { ...rule, ref: rule.ref ?? old.ref };
      return sameDefinition(old, next)
        ? orderedRule({ ...next, version: old.version, last_updated: old.last_updated })
        : orderedRule({ ...next, version, last_updated: now });
    }
    const id = hexId();
    return orderedRule({ ...rule, id, ref: rule.ref ?? id, version, last_updated: now });
  });
}

/** The phase as the client wrote it last (`magic_transit` or `edge_transit`). */
export function phaseOf(rs: StoredRuleset): string {
  return rs.phase_spelling ?? rs.phase;
}

/** The ruleset as the API returns it (no history), its phase spelt `phase`. */
export function presentRuleset(rs: StoredRuleset, phase = phaseOf(rs)): Ruleset {
  const { id, name, description, kind, version, last_updated, rules } = rs;
  return description === undefined
    ? { id, name, kind, version, last_updated, phase, rules }
    : { id, name, description, kind, version, last_updated, phase, rules };
}

/** The next version number. */
export function nextVersion(rs: StoredRuleset): string {
  return String(Number(rs.version) + 1);
}

/** Records the current version in the history and makes `changes` the new current version. */
export function commitVersion(
  rs: StoredRuleset,
  changes: { description?: string; rules: RulesetRule[] },
  version: string,
  now: string,
): void {
  const old: RulesetVersion = { version: rs.version, last_updated: rs.last_updated, name: rs.name, description: rs.description, rules: rs.rules };
  rs.history.push(old);
  if (rs.history.length > MAX_HISTORY) rs.history.splice(0, rs.history.length - MAX_HISTORY);
  rs.rules = changes.rules;
  if (changes.description !== undefined) rs.description = changes.description;
  rs.version = version;
  rs.last_updated = now;
}

/** The ruleset as of `version` (current or from the history), or undefined. */
export function rulesetAt(rs: StoredRuleset, version: string, phase = phaseOf(rs)): Ruleset | undefined {
  if (version === rs.version) return presentRuleset(rs, phase);
  const old = rs.history.find((v) => v.version === version);
  if (!old) return undefined;
  return presentRuleset({ ...rs, ...old, history: [] }, phase);
}

/** Every version's summary (no rules), oldest first. */
export function versionSummaries(rs: StoredRuleset, phase = phaseOf(rs)): Ruleset[] {
  const summary = (v: RulesetVersion): Ruleset => {
    const { rules: _rules, ...rest } = presentRuleset({ ...rs, ...v, history: [] }, phase);
    return rest;
  };
  return [...rs.history, rs].map(summary);
}

/**
 * `rules` with `rule` placed at `position` (appended when none). When `rule` is already in `rules`
 * it is moved. Throws a 400 for an ambiguous or out-of-range position or an unknown reference.
 */
export function placeRule(rules: readonly RulesetRule[], rule: RulesetRule, position: Position | undefined): RulesetRule[] {
  const others = rules.filter((r) => r.id !== rule.id);
  const at = position === undefined ? others.length : insertionIndex(others, rule, position);
  return [...others.slice(0, at), rule, ...others.slice(at)];
}

function insertionIndex(others: readonly RulesetRule[], rule: RulesetRule, position: Position): number {
  const keys = Object.keys(position) as Array<keyof Position>;
  if (keys.length !== 1) throw new ApiError('invalid_position', 'position: give exactly one of "before", "after" or "index"', '/position');
  const indexOf = (key: 'before' | 'after', id: string): number => {
    if (id === rule.id) throw new ApiError('invalid_position', `position.${key}: a rule cannot be placed relative to itself`, `/position/${key}`);
    const i = others.findIndex((r) => r.id === id);
    if (i < 0) throw new ApiError('invalid_position', `position.${key}: no rule with id ${JSON.stringify(id)} in this ruleset`, `/position/${key}`);
    return i;
  };
  if (position.before !== undefined) return position.before === '' ? 0 : indexOf('before', position.before);
  if (position.after !== undefined) return position.after === '' ? others.length : indexOf('after', position.after) + 1;
  const index = position.index as number;
  if (index > others.length + 1) {
    throw new ApiError('invalid_position', `position.index: must be from 1 to ${others.length + 1} (got ${index})`, '/position/index');
  }
  return index - 1;
}
