// `space:` cases: an expectation that holds for every packet of a header space, e.g.
// `{name, space: {ip.dst: [203.0.113.0/24], ip.proto: tcp, tcp.dstport: [22]}, expect: {verdict: drop}}`,
// or a list of such maps for their union (`space: [{…}, {…}]`, one case for a region of many boxes),
// proved by the static analysis (src/analysis/prove.ts) rather than sampled, or refuted with a
// witness packet (written as a `packet:` case would be, to paste into one). The firewall stage
// only: ATP decides by rates and connection state, which a header space does not have.
import { SpaceProver, spaceExpression, type AnalysisBudget, type HeaderSpaceSpec, type SpaceSpec, type SpaceValue } from '../../analysis/index.js';
import { createListRegistry } from '../../data/lists.js';
import { UserError } from '../../errors.js';
import type { SuitePaths } from '../case-path.js';
import type { Located } from '../source.js';
import type { CaseKind, RunContext } from '../suite.js';
import { parseVerdictExpectation } from '../verdict-expect.js';

export interface SpaceCase {
  space: SpaceSpec;
  verdict: 'pass' | 'drop';
  rule?: string | null;
  /** why `rule` can never decide: no rule has that ref */
  missing?: string;
}

function scalar(at: Located): SpaceValue {
  if (at.type !== 'string' && at.type !== 'number' && at.type !== 'boolean') at.fail(`expected a value, got ${at.type}`);
  return at.value as SpaceValue;
}

// the firewall of a suite's configuration is modelled once for every space: case of a run
const provers = new WeakMap<AnalysisBudget, WeakMap<SuitePaths, SpaceProver>>();

function proverOf(ctx: RunContext): SpaceProver {
  let byPaths = provers.get(ctx.analysis);
  if (byPaths === undefined) provers.set(ctx.analysis, (byPaths = new WeakMap()));
  let prover = byPaths.get(ctx.paths);
  if (prover === undefined) {
    const registry = createListRegistry({ dir: ctx.paths.options.listsDir, accountLists: ctx.paths.snapshot.lists });
    prover = new SpaceProver(ctx.paths.snapshot, { lists: (n: string) => registry.resolve(n), budget: ctx.analysis });
    byPaths.set(ctx.paths, prover);
  }
  return prover;
}

/** One map of a space: field: values, a field's `{not: [values]}`; checked as the expression it stands for. */
function fields(at: Located): HeaderSpaceSpec {
  const space: Record<string, SpaceValue | SpaceValue[] | { not: SpaceValue[] }> = {};
  const values = (v: Located): SpaceValue[] => (v.type === 'list' ? v.items().map(scalar) : [scalar(v)]);
  for (const [field, v] of at.entries('a map of field: values, or a list of them (their union)')) {
    if (v.type === 'map') space[field] = { not: values(v.checkKeys(['not']).get('not') ?? v.fail('expected {not: [values]}: every value but those')) };
    else space[field] = v.type === 'list' ? v.items().map(scalar) : scalar(v);
  }
  try {
    spaceExpression(space, at.key);
  } catch (err) {
    if (err instanceof UserError) at.fail(err.message);
    throw err;
  }
  return space;
}

export const spaceKind: CaseKind<SpaceCase> = {
  key: 'space',
  keys: [],
  expectKeys: ['verdict', 'rule'],
  parse(value, expect, _keys, ctx) {
    const space: SpaceSpec = value.type === 'list' ? [...value.items()].map(fields) : fields(value);
    if (Array.isArray(space) && space.length === 0) value.fail('expected a map of field: values, or a list of them (their union), got an empty list');
    const want = parseVerdictExpectation(expect, ctx.paths.refs);
    const verdict = want.verdict ?? value.fail('a space case needs expect.verdict');
    const missing = want.rule === undefined || want.rule === null ? undefined : want.missing?.get(want.rule);
    return { space, verdict, ...(want.rule === undefined ? {} : { rule: want.rule }), ...(missing === undefined ? {} : { missing }) };
  },
  async run(c, ctx) {
    const prover = proverOf(ctx);
    ctx.coverage?.space(prover.reach(c.space));
    const proof = prover.prove(c.space, { verdict: c.verdict, rule: c.rule });
    if (proof.status === 'holds') return { failures: [], traces: [], warnings: [], notes: [] };
    if (proof.status === 'undecided') return { failures: [], traces: [], warnings: [`not proved: ${proof.reason}`], notes: [] };
    const got = `${proof.verdict} by ${proof.rule ?? '(no rule)'}`;
    const want = `${c.verdict}${c.rule === undefined ? '' : ` by ${c.rule ?? '(no rule)'}`}${c.missing === undefined ? '' : ` (${c.missing})`}`;
    const line = `expected ${want} for every packet, got ${got} for packet ${JSON.stringify(proof.witness)}`;
    if (proof.status === 'fails') return { failures: [line], traces: [], warnings: [], notes: [] };
    return { failures: [], traces: [], warnings: [`possibly ${line} (regular expressions, byte strings or functions decide it)`], notes: [] };
  },
};
