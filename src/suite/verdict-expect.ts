// What a case expects of one packet (a `packet:`, the last of `packets:`, or a capture's frame):
// verdict, the deciding rule, the stage, ATP's reason, and the refs of every matching rule. A key
// that is absent is not checked. A ref that no rule of the configuration has (a typo, or a rule the
// change deleted or renamed) is that case's failure, with the nearest ref the configuration has:
// the suite stays valid and its other cases run, so a change shows every case it breaks.
import { COMPONENT_NAMES } from '../protection-components.js';
import { REASONS } from '../atp/vocabulary.js';
import { suggestion, type Located } from './source.js';
import type { VerdictSummary } from './trace.js';

export interface VerdictExpectation {
  verdict?: 'pass' | 'drop';
  rule?: string | null;
  stage?: string | null;
  reason?: string | null;
  matched?: string[];
  /** how a word was read, e.g. `verdict: block` as drop */
  note?: string;
  /** the refs named that no rule has, each with its failure's text */
  missing?: Map<string, string>;
}

export const VERDICT_KEYS = ['verdict', 'rule', 'stage', 'reason', 'matched'] as const;
const VERDICTS = ['pass', 'drop'];
/** what people say for `drop`, read as it with a note */
const DROP_WORD = 'block';

/** What an expectation may name: `rule` any deciding ref (firewall rules, ATP rules and filters), `matched` firewall rules. */
export interface KnownRefs {
  deciding: readonly string[];
  firewall: readonly string[];
}
/** the stages an expectation may name: the firewall and each protection component */
const STAGES = ['firewall', ...COMPONENT_NAMES];

function choice(at: Located, allowed: readonly string[], nullable: boolean): string | null {
  if (nullable && at.type === 'null') return null;
  if (at.type !== 'string' || !allowed.includes(at.value as string)) {
    const got = at.type === 'string' ? JSON.stringify(at.value) : at.type;
    at.fail(`expected ${allowed.join(' | ')}${nullable ? ' | null' : ''}, got ${got}${at.type === 'string' ? suggestion(at.value as string, allowed, false) : ''}`);
  }
  return at.value as string;
}

/** Why a ref no rule has cannot be expected, with the nearest ref there is. */
export function missingRef(ref: string, refs: readonly string[]): string {
  return `no rule has the ref ${JSON.stringify(ref)}${suggestion(ref, refs, false)}`;
}

function ruleRef(at: Located, refs: readonly string[], out: VerdictExpectation): string {
  if (at.type !== 'string') at.fail(`expected a rule ref (a string), got ${at.type}`);
  const ref = at.value as string;
  if (!refs.includes(ref)) (out.missing ??= new Map()).set(ref, missingRef(ref, refs));
  return ref;
}

/**
 * Parses the verdict keys of `fields` (already checked to be among the allowed keys).
 */
export function parseVerdictExpectation(fields: Map<string, Located>, refs: KnownRefs): VerdictExpectation {
  const out: VerdictExpectation = {};
  const verdict = fields.get('verdict');
  if (verdict?.value === DROP_WORD) {
    out.verdict = 'drop';
    out.note = `verdict: ${DROP_WORD} read as drop (the verdicts are pass and drop)`;
  } else if (verdict !== undefined) out.verdict = choice(verdict, VERDICTS, false) as 'pass' | 'drop';
  const rule = fields.get('rule');
  if (rule !== undefined) out.rule = rule.type === 'null' ? null : ruleRef(rule, refs.deciding, out);
  const stage = fields.get('stage');
  if (stage !== undefined) out.stage = choice(stage, STAGES, true);
  const reason = fields.get('reason');
  if (reason !== undefined) out.reason = choice(reason, REASONS, true);
  const matched = fields.get('matched');
  if (matched !== undefined) out.matched = matched.items('a list of rule refs').map((r) => ruleRef(r, refs.firewall, out));
  return out;
}

/** A verdict written in short (`5: drop`) or as a map (`17: {verdict: pass, rule: allow-web}`). */
export function parseFrameExpectation(at: Located, refs: KnownRefs): VerdictExpectation {
  if (at.type === 'string') return { verdict: choice(at, VERDICTS, false) as 'pass' | 'drop' };
  return parseVerdictExpectation(at.checkKeys(VERDICT_KEYS), refs);
}

function show(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
}

/** The differences between what was expected and the traced packet, one `key: expected X, got Y` each. */
export function compareVerdict(want: VerdictExpectation, got: VerdictSummary): string[] {
  const diffs: string[] = [];
  const check = (key: keyof VerdictExpectation, actual: unknown): void => {
    const expected = want[key];
    if (expected === undefined) return;
    const same = Array.isArray(expected) ? Array.isArray(actual) && expected.join('\0') === actual.join('\0') : expected === actual;
    if (same) return;
    const missing = [...(want.missing ?? [])].filter(([ref]) => (Array.isArray(expected) ? expected.includes(ref) : expected === ref)).map(([, why]) => why);
    diffs.push(`${key}: expected ${show(expected)}${missing.length === 0 ? '' : ` (${missing.join('; ')})`}, got ${show(actual)}`);
  };
  check('verdict', got.verdict);
  check('rule', got.rule);
  check('stage', got.stage);
  check('reason', got.reason);
  check('matched', got.matched);
  return diffs;
}
