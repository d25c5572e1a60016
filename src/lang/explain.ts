// `edgesim explain`, in the spirit of Wireshark's dftest: the tokens the scanner consumed (with
// byte offsets), the typed AST as an indented tree, and the compiled plan — what each comparison
// became (merged int ranges, IP set sizes, regex, wildcard segments, fallbacks). The plan is built
// with a binding that is never evaluated, and `$lists` as empty placeholders (their contents live
// in the configuration, not in the expression).
import type { CallArg, ComparisonExpr, Expr, IndexExpr } from './ast.js';
import type { SchemeBinding } from './binding.js';
import { compileWithPlan } from './eval/compile.js';
import { listsUsed } from './analysis.js';
import { parseWithTokens, type Limits } from './parse.js';
import { printExpr, formatIp, quoteBytes } from './print.js';
import type { Scheme } from './scheme.js';
import { display, isPrimitive } from './types.js';
import { IpSetBuilder } from '../net/ip-set.js';

const EMPTY = new Uint8Array(0);
const ZERO6 = new Uint32Array(4);

function inertBinding(scheme: Scheme): SchemeBinding<unknown> {
  const out: Record<string, SchemeBinding<unknown>[string]> = {};
  const never = () => false;
  for (const name of scheme.fieldNames()) {
    const t = scheme.field(name)!.type;
    if (t === 'Bool') out[name] = { type: t, has: never, get: never };
    else if (t === 'Int') out[name] = { type: t, has: never, get: () => 0 };
    else if (t === 'Ip') out[name] = { type: t, has: never, family: () => 4, v4: () => 0, v6: () => ZERO6 };
    else if (t === 'Bytes') out[name] = { type: t, has: never, bytes: () => EMPTY, start: () => 0, end: () => 0 };
    else out[name] = { type: isPrimitive(t) || 'array' in t ? 'Array' : 'Map', has: never, get: () => [] };
  }
  return out;
}

function argText(a: CallArg): string {
  if (a.kind === 'literal') return `literal ${a.value.type === 'Int' ? a.value.value : a.value.type === 'Ip' ? formatIp(a.value.ip) : quoteBytes(a.value.bytes)} (${a.value.type})`;
  if (a.kind === 'index') return `${indexText(a.expr)} (${display(a.expr.type)})`;
  return `${printExpr(a.expr)} (${display(a.expr.type)})`;
}

function indexText(e: IndexExpr): string {
  const base = e.base.kind === 'field' ? `field ${e.base.name}` : `call ${e.base.name}(${e.base.args.map(argText).join(', ')})`;
  const idx = e.indexes.map((i) => (i.kind === 'array' ? `[${i.index}]` : i.kind === 'key' ? `[${JSON.stringify(i.key)}]` : '[*]')).join('');
  return base + idx;
}

function opText(c: ComparisonExpr): string {
  const op = c.op;
  if (op.kind === 'isTrue') return 'is true';
  if (op.kind === 'inSet') return `in set of ${op.set.type === 'Int' ? op.set.ranges.length : op.set.items.length} ${op.set.type} item(s)`;
  if (op.kind === 'inList') return `in list $${op.name}`;
  const lhsOnly = printExpr({ ...c, op: { kind: 'isTrue' } });
  return printExpr(c).slice(lhsOnly.length + 1);
}

function tree(e: Expr, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const type = display(e.type);
  switch (e.kind) {
    case 'combining':
      out.push(`${pad}${e.op} (${type}, ${e.items.length} operands)`);
      for (const item of e.items) tree(item, depth + 1, out);
      return;
    case 'not':
      out.push(`${pad}not (${type})`);
      tree(e.arg, depth + 1, out);
      return;
    case 'group':
      out.push(`${pad}group (${type})`);
      tree(e.expr, depth + 1, out);
      return;
    case 'quantifier':
      out.push(`${pad}${e.which} (${type})`);
      tree(e.arg, depth + 1, out);
      return;
    case 'comparison':
      out.push(`${pad}comparison (${type})`);
      out.push(`${pad}  lhs: ${indexText(e.lhs)} (${display(e.lhs.type)})`);
      out.push(`${pad}  op: ${opText(e)}`);
  }
}

/** The explanation text for an expression; throws FilterError if it does not parse. */
export function explain(expr: string, scheme: Scheme, limits: Limits = {}): string {
  const { ast, tokens } = parseWithTokens(expr, scheme, limits);
  const out: string[] = ['Tokens (byte offsets):'];
  for (const t of tokens) out.push(`  ${`${t.start}..${t.end}`.padEnd(10)} ${t.kind.padEnd(11)} ${JSON.stringify(t.text)}`);
  out.push('', 'Syntax tree:');
  tree(ast.expr, 1, out);
  const lists = new Map(listsUsed(ast).map((name) => [name, new IpSetBuilder().build()]));
  const { plan } = compileWithPlan(ast, inertBinding(scheme), { lists: (n) => lists.get(n) });
  out.push('', 'Compiled plan:');
  for (const entry of plan) out.push(`  ${entry.expr}`, `    -> ${entry.compiled}`);
  out.push('', `Canonical form: ${printExpr(ast)}`);
  return `${out.join('\n')}\n`;
}
