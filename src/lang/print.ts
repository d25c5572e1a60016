// Canonical text of an expression: English logical operators, C-like comparison operators,
// decimal integers, canonical addresses (RFC 5952 for IPv6), byte strings quoted with `\xHH` for
// anything outside printable ASCII, regexes as raw strings. Parsing the printed text gives the
// same tree (spans aside): groups print their parentheses and every literal re-lexes to the same
// value, so `parse(printExpr(ast))` is structurally equal to `ast`.
import type { Ast, CallArg, ComparisonExpr, Expr, FieldIndex, IndexExpr, IpItem, IpValue, Literal, OrderingOp } from './ast.js';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';

const ORDERING_TEXT: Record<OrderingOp, string> = { eq: '==', ne: '!=', ge: '>=', le: '<=', gt: '>', lt: '<' };
const utf8 = new TextDecoder();

export function quoteBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

function rawString(text: string): string {
  let hashes = 0;
  while (text.includes(`"${'#'.repeat(hashes)}`)) hashes++;
  const h = '#'.repeat(hashes);
  return `r${h}"${text}"${h}`;
}

export function formatIp(ip: IpValue): string {
  return ip.family === 4 ? formatIPv4(ip.v4) : formatIPv6(ip.v6);
}

function formatIpItem(item: IpItem): string {
  if (item.kind === 'range') return `${formatIp(item.lo)}..${formatIp(item.hi)}`;
  return item.len === (item.ip.family === 4 ? 32 : 128) ? formatIp(item.ip) : `${formatIp(item.ip)}/${item.len}`;
}

function literal(l: Literal): string {
  if (l.type === 'Int') return l.value.toString();
  if (l.type === 'Ip') return formatIp(l.ip);
  return quoteBytes(l.bytes);
}

function index(i: FieldIndex): string {
  if (i.kind === 'array') return `[${i.index}]`;
  if (i.kind === 'key') return `[${quoteBytes(new TextEncoder().encode(i.key))}]`;
  return '[*]';
}

function arg(a: CallArg): string {
  if (a.kind === 'literal') return literal(a.value);
  if (a.kind === 'index') return indexExpr(a.expr);
  return expr(a.expr);
}

function indexExpr(e: IndexExpr): string {
  const base = e.base.kind === 'field' ? e.base.name : `${e.base.name}(${e.base.args.map(arg).join(', ')})`;
  return base + e.indexes.map(index).join('');
}

function comparison(c: ComparisonExpr): string {
  const lhs = indexExpr(c.lhs);
  const op = c.op;
  switch (op.kind) {
    case 'isTrue':
      return lhs;
    case 'ordering':
      return `${lhs} ${ORDERING_TEXT[op.op]} ${literal(op.rhs)}`;
    case 'bitwiseAnd':
      return `${lhs} & ${op.rhs}`;
    case 'contains':
      return `${lhs} contains ${quoteBytes(op.rhs)}`;
    case 'matches':
      return `${lhs} matches ${rawString(utf8.decode(Uint8Array.from(op.pattern, (ch) => ch.charCodeAt(0))))}`;
    case 'wildcard':
      return `${lhs} ${op.strict ? 'strict wildcard' : 'wildcard'} ${quoteBytes(op.pattern)}`;
    case 'inList':
      return `${lhs} in $${op.name}`;
    case 'inSet': {
      const set = op.set;
      const items =
        set.type === 'Int'
          ? set.ranges.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}..${hi}`))
          : set.type === 'Ip'
            ? set.items.map(formatIpItem)
            : set.items.map(quoteBytes);
      return `${lhs} in {${items.join(' ')}}`;
    }
  }
}

function expr(e: Expr): string {
  switch (e.kind) {
    case 'combining':
      return e.items.map(expr).join(` ${e.op} `);
    case 'not':
      return `not ${expr(e.arg)}`;
    case 'group':
      return `(${expr(e.expr)})`;
    case 'quantifier':
      return `${e.which}(${expr(e.arg)})`;
    case 'comparison':
      return comparison(e);
  }
}

/** The canonical text of a parsed expression. */
export function printExpr(ast: Ast | Expr): string {
  return expr('expr' in ast && 'scheme' in ast ? ast.expr : (ast as Expr));
}
