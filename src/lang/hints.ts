// "Did you mean" for the mistakes a Wireshark user makes first, shown by `validate` and `explain`
// as one more line after the engine's message (which stays byte-identical; the API never shows
// hints):
// - a Wireshark field name the scheme spells differently (`tcp.port`, `ip.addr`, `tcp.flags.rst`),
//   or a near miss of a field name (at most two edits);
// - a field that is not a condition used as one (`tcp` alone is the raw TCP header, Bytes; its
//   error is the engine's `expected ComparisonOp` right after the name);
// - a bare word compared with a Bytes field (`ip.proto == tcp`: the engine reads `tcp` as hex
//   bytes): quote it;
// - a network compared with `==` (`ip.src == 10.0.0.0/8`): `in {…}` takes networks;
// - a firewall field in an ATP filter, which may use only the filter scheme's four fields.
// And, for an expression the engine accepts, a warning for a `$cf.`/`$svc.` name that is not a
// managed list (`$cf.anonymiser`): valid, but no configuration can make it resolve; and one for an
// account list (`$office`), which nothing checks without a configuration.
// Names from the expression are looked up in Maps: `constructor` is a name like any other.
import type { Ast } from './ast.js';
import type { FilterError } from './errors.js';
import { accountLists, MANAGED_LISTS, unknownManagedLists } from './lists.js';
import type { Scheme } from './scheme.js';
import { FIREWALL_SCHEME } from './schemes.js';
import { display } from './types.js';

/** Wireshark display-filter names and what the firewall scheme calls them. */
const WIRESHARK_NAMES = new Map<string, readonly string[]>(Object.entries({
  'ip.addr': ['ip.src', 'ip.dst'],
  'ipv6.addr': ['ip.src', 'ip.dst'],
  'ipv6.src': ['ip.src'],
  'ipv6.dst': ['ip.dst'],
  'ip.host': ['ip.src', 'ip.dst'],
  'ip.protocol': ['ip.proto'],
  'ipv6.nxt': ['ip.proto'],
  'ipv6.hlim': ['ip.ttl'],
  'ipv6.plen': ['ip.len'],
  'tcp.port': ['tcp.dstport', 'tcp.srcport'],
  'udp.port': ['udp.dstport', 'udp.srcport'],
  'tcp.flags.rst': ['tcp.flags.reset'],
  'tcp.flags.psh': ['tcp.flags.push'],
  'tcp.flags.ece': ['tcp.flags.ecn'],
  'icmpv6.type': ['icmp.type'],
  'icmpv6.code': ['icmp.code'],
}));

const PROTOCOL_HEADERS = new Map(Object.entries({ ip: 'IP', tcp: 'TCP', udp: 'UDP', icmp: 'ICMP' }));

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

function oneOf(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function fieldsLike(name: string, scheme: Scheme): string[] {
  const aliases = (WIRESHARK_NAMES.get(name) ?? []).filter((f) => scheme.field(f));
  if (aliases.length > 0) return aliases;
  return scheme
    .fieldNames()
    .map((f) => [f, editDistance(name, f)] as const)
    .filter(([, d]) => d <= 2)
    .sort((x, y) => x[1] - y[1])
    .slice(0, 3)
    .map(([f]) => f);
}

/** The identifier that ends right before pos (spaces skipped), or ''. */
function nameBefore(expr: string, pos: number): string {
  let end = pos;
  while (end > 0 && expr[end - 1] === ' ') end--;
  let start = end;
  while (start > 0 && /[A-Za-z0-9_.]/.test(expr[start - 1])) start--;
  return expr.slice(start, end);
}

/** A change of the expression a hint proposes: bytes [start, end) of the expression replaced by `text`. */
export interface HintFix {
  readonly title: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A hint's line and the changes it proposes (an editor's quick fixes). */
export interface Hint {
  readonly text: string;
  readonly fixes: readonly HintFix[];
}

const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A one-line hint for a parse error of expr against scheme, or null. */
export function hintFor(expr: string, err: FilterError, scheme: Scheme): string | null {
  return hintOf(expr, err, scheme)?.text ?? null;
}

/** hintFor's line with the changes it proposes, or null. */
export function hintOf(expr: string, err: FilterError, scheme: Scheme): Hint | null {
  const bytes = Buffer.from(expr, 'utf8');
  /** the text before a byte offset */
  const at = (offset: number) => bytes.subarray(0, offset).toString('utf8');
  if (err.code === 'unknown_identifier') {
    const name = bytes.subarray(err.start, err.end).toString('utf8');
    if (FIREWALL_SCHEME.field(name) && !WIRESHARK_NAMES.has(name)) return { text: `${name} is a firewall rule field: an ATP filter may use only ${oneOf(scheme.fieldNames())}`, fixes: [] };
    const like = fieldsLike(name, scheme);
    return like.length > 0 ? { text: `did you mean ${oneOf(like)}?`, fixes: like.map((f) => ({ title: `Change ${name} to ${f}`, start: err.start, end: err.end, text: f })) } : null;
  }
  const before = at(err.start);
  const compared = /([A-Za-z0-9_.]+)\s*(==|eq|!=|ne)\s*$/.exec(before);
  if (compared !== null) {
    const [, name, op] = compared as unknown as [string, string, string];
    // the value the engine could not read, which the error starts (its span may cover only part of it)
    const value = /^[^\s)}]*/.exec(bytes.subarray(err.start).toString('utf8'))![0];
    const type = scheme.field(name)?.type;
    const valueEnd = err.start + bytesOf(value);
    if (type !== undefined && display(type) === 'Bytes' && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(value)) {
      return { text: `a Bytes value is written in quotes: ${name} ${op} "${value}"`, fixes: [{ title: `Quote ${value}: "${value}"`, start: err.start, end: valueEnd, text: `"${value}"` }] };
    }
    if (type !== undefined && display(type) === 'Ip' && value.includes('/')) {
      const negated = op !== '==' && op !== 'eq';
      const written = `${negated ? 'not ' : ''}${name} in {${value}}`;
      return {
        text: `${op} compares one address; for a network write ${written}`,
        fixes: [{ title: `Write ${written}`, start: bytesOf(before.slice(0, compared.index)), end: valueEnd, text: written }],
      };
    }
  }
  if (err.reason !== 'expected ComparisonOp') return null;
  const name = nameBefore(before, before.length);
  const field = scheme.field(name);
  if (!field) return null;
  const header = PROTOCOL_HEADERS.get(name);
  if (header) {
    const proto = name !== 'ip' && scheme.field('ip.proto') ? `ip.proto == "${name}"` : null;
    const nameEnd = bytesOf(before.trimEnd());
    const fixes = proto === null ? [] : [{ title: `Write ${proto}`, start: nameEnd - bytesOf(name), end: nameEnd, text: proto }];
    return { text: `${name} is the raw ${header} header (Bytes), not a condition${proto === null ? '' : `: did you mean ${proto}?`}`, fixes };
  }
  const type = display(field.type);
  const article = /^[AEIOU]/.test(type) ? 'an' : 'a';
  return { text: `${name} is ${article} ${type} field: compare it with a value, for example ${name} ${EXAMPLE[type] ?? '== …'}`, fixes: [] };
}

const EXAMPLE: Record<string, string> = { Int: '== 80', Ip: 'in {192.0.2.0/24}', Bytes: '== "…"' };

/**
 * One warning per `$cf.`/`$svc.` name in `ast` that is not a managed list, with the managed list it
 * probably means (a near miss or a prefix), else all of them; and one per account list, which
 * nothing checks without a configuration.
 */
export function listWarnings(ast: Ast): string[] {
  const unmanaged = unknownManagedLists(ast).map(({ namespace, list }) => {
    const near = MANAGED_LISTS.find((n) => n.startsWith(list) || editDistance(list, n) <= 2);
    const managed = near === undefined ? `the managed lists are ${MANAGED_LISTS.map((n) => `$${namespace}.${n}`).join(', ')}` : `did you mean $${namespace}.${near}?`;
    return `$${namespace}.${list} is not a managed list, so no configuration can define it: ${managed}`;
  });
  const account = accountLists(ast).map((name) => `$${name} is not checked without a configuration: an account list of that name must exist where the rule is used`);
  return [...unmanaged, ...account];
}
