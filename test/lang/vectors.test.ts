// Every documented parse vector of reference/wirefilter.md (§3.4 worked examples, §5a unit-test
// vectors, §5b [run] vectors) as data: expression, scheme, and the exact reason, line, column
// (1-based, bytes) and caret count the engine prints.
import { describe, expect, it } from 'vitest';
import { FilterError, interpret, parse, printExpr, type Scheme } from '../../src/lang/index.js';
import { objectBinding, packet } from './packets.js';
import { LOGICAL, S, UNIT } from './schemes.js';

interface Bad {
  expr: string;
  reason: string;
  /** 0-based byte column within the failing line */
  col: number;
  /** span length in bytes as the engine reports it (0 prints one caret) */
  len: number;
  line?: number;
  scheme?: Scheme;
  /** the reason is abbreviated in the doc: assert these parts only */
  partial?: string[];
  maxNesting?: number;
}

function failure(expr: string, scheme: Scheme, maxNesting?: number): FilterError {
  try {
    parse(expr, scheme, maxNesting === undefined ? {} : { maxNesting });
  } catch (err) {
    if (err instanceof FilterError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(expr)} to fail`);
}

function checkBad(v: Bad): void {
  const err = failure(v.expr, v.scheme ?? S, v.maxNesting);
  const [header, , carets] = err.message.split('\n');
  expect(header).toBe(`Filter parsing error (${v.line ?? 1}:${v.col + 1}):`);
  const caretRun = /^( *)(\^+) /.exec(carets)!;
  expect(caretRun[1].length).toBe(v.col);
  expect(caretRun[2].length).toBe(Math.max(1, v.len));
  if (v.partial) for (const part of v.partial) expect(err.reason).toContain(part);
  else expect(err.reason).toBe(v.reason);
  expect(err.message.endsWith(`${err.reason}\n`)).toBe(true);
}

const ARRAY_BYTES = 'Array(CompoundType { layers: 0, len: 0, primitive: Bytes })';
const MAP_BYTES = 'Map(CompoundType { layers: 0, len: 0, primitive: Bytes })';

const UNIT_VECTORS: Bad[] = [
  { expr: 'xyz', reason: 'unknown identifier', col: 0, len: 3 },
  { expr: '\n\n    xyz', reason: 'unknown identifier', col: 4, len: 3, line: 3 },
  { expr: 'num == 10 or\nnum == true or\nnum == 20', reason: 'expected digit', col: 7, len: 7, line: 2 },
  { expr: 'arr and arr', reason: 'expected value of type Bool, but got Array<Bool>', col: 11, len: 0 },
  { expr: 'str in {', reason: 'unrecognised input', col: 8, len: 0 },
  { expr: 'str in {"a"', reason: 'unrecognised input', col: 11, len: 0 },
  { expr: 'num in {', reason: 'expected digit', col: 8, len: 0 },
  { expr: 'concat(0, 0) == 0', reason: 'invalid type of argument #0: expected value of type Bytes or Array<_>, but got Int', col: 7, len: 1 },
  { expr: 'bool in {0}', reason: 'unrecognised input', col: 4, len: 7 },
  { expr: 'bool in {127.0.0.1}', reason: 'unrecognised input', col: 4, len: 15 },
  { expr: 'num in {127.0.0.1}', reason: 'expected digit', col: 11, len: 7 },
  { expr: 'num in {"test"}', reason: 'expected digit', col: 8, len: 7 },
  { expr: 'ip in {666}', reason: "couldn't parse address in network: invalid IP address syntax", col: 7, len: 3 },
  { expr: 'ip in {"test"}', reason: 'expected IP address character', col: 7, len: 7 },
  { expr: 'str in {0}', reason: 'invalid digit found in string while parsing with radix 16', col: 8, len: 2 },
  { expr: 'str in {127.0.0.1}', reason: 'expected byte separator', col: 10, len: 1 },
  { expr: 'str_arr in {0}', reason: `cannot perform this operation on type ${ARRAY_BYTES}`, col: 8, len: 2 },
  { expr: 'str_map in {0}', reason: `cannot perform this operation on type ${MAP_BYTES}`, col: 8, len: 2 },
  ...['eq', 'ne', 'ge', 'le', 'gt', 'lt'].map((op) => ({ expr: `num ${op} 127.0.0.1`, reason: 'unrecognised input', col: 10, len: 6 })),
  { expr: 'num eq "test"', reason: 'expected digit', col: 7, len: 6 },
  { expr: 'str eq 0', reason: 'expected 2 characters, but found 1', col: 7, len: 1 },
  { expr: 'str eq 256', reason: 'expected byte separator', col: 9, len: 1 },
  { expr: 'str_arr eq "test"', reason: `cannot perform this operation on type ${ARRAY_BYTES}`, col: 8, len: 2 },
  { expr: 't and af', reason: 'expected value of type Bool, but got Array<Bool>', col: 8, len: 0, scheme: LOGICAL },
  { expr: 'at and f', reason: 'expected value of type Array<Bool>, but got Bool', col: 8, len: 0, scheme: LOGICAL },
  { expr: 'aat[*]', reason: '', partial: ['cannot perform this operation on type Array(', 'Bool'], col: 6, len: 0, scheme: LOGICAL },
  { expr: '((t))', reason: 'maximum nesting depth exceeded (limit: 1)', col: 1, len: 4, scheme: LOGICAL, maxNesting: 1 },
  { expr: '!!t', reason: 'maximum nesting depth exceeded (limit: 1)', col: 1, len: 2, scheme: LOGICAL, maxNesting: 1 },
  { expr: 't and (t or t)', reason: 'maximum nesting depth exceeded (limit: 0)', col: 6, len: 8, scheme: LOGICAL, maxNesting: 0 },
  { expr: 'any(t)', reason: 'expected value of type Array<Bool>, but got Bool', col: 4, len: 1, scheme: LOGICAL },
  { expr: 'http.host < 12', reason: 'expected 1 characters, but found 0', col: 14, len: 0 },
  { expr: 'http.host[*] == "three"', reason: 'cannot access index MapEach for type Bytes', col: 9, len: 3 },
  { expr: 'test[-1] == "a"', reason: 'expected literal "expected positive integer as index"', col: 5, len: 10 },
  { expr: 'test[a] == "a"', reason: 'expected literal "expected quoted utf8 string or positive integer"', col: 5, len: 9 },
  { expr: 'tcp.port == 10fex', reason: 'invalid digit found in string while parsing with radix 10', col: 12, len: 4 },
  { expr: 'tcp.port in {10..0}', reason: 'incompatible range bounds', col: 13, len: 5 },
  { expr: 'ip.addr in {10.0.0.0/100}', reason: 'invalid length for network: Network length 100 is too long for Ipv4 (maximum: 32)', col: 12, len: 12 },
  { expr: 'ip.addr in {::/.1}', reason: "couldn't parse length in network: invalid digit found in string", col: 15, len: 2 },
  { expr: 'ip.addr in {10.0.0.0.0/10}', reason: "couldn't parse address in network: invalid IP address syntax", col: 12, len: 10 },
  { expr: 'http.host == "\\n"', reason: 'expected ", xHH or OOO after \\', col: 15, len: 1 },
  { expr: 'http.host == "abcd\\', reason: 'could not find an ending quote', col: 14, len: 5 },
  { expr: 'http.host == r#"a"', reason: 'could not find an ending quote', col: 14, len: 4 },
  { expr: 'ip.src in $Foo', reason: 'invalid list name "F"', col: 11, len: 3, scheme: S },
  { expr: 'ip.src in $', reason: 'invalid list name ""', col: 11, len: 0, scheme: S },
  { expr: 'ip.src in $.abc', reason: 'invalid list name ".abc"', col: 11, len: 4, scheme: S },
  { expr: 'ip.src in $abc.', reason: 'invalid list name "abc."', col: 11, len: 4, scheme: S },
].map((v) => ({ scheme: UNIT, ...v }));

const RUN_VECTORS: Bad[] = [
  { expr: 'ip.src==34', reason: "couldn't parse address in network: invalid IP address syntax", col: 8, len: 2 },
  { expr: 'ip.src in {2400:cb00::/2000}', reason: "couldn't parse length in network: number too large to fit in target type", col: 23, len: 4 },
  { expr: 'ip.src in {1.2.3.4 1.2.3.}', reason: "couldn't parse address in network: invalid IP address syntax", col: 19, len: 6 },
  { expr: 'foo == 1', reason: 'unknown identifier', col: 0, len: 3 },
  { expr: 'tcp.dstport == "80"', reason: 'expected digit', col: 15, len: 4 },
  { expr: '(ip.src == 1.2.3.4', reason: 'expected literal ")"', col: 18, len: 0 },
  { expr: 'ip.src == 1.2.3.4)', reason: 'unrecognised input', col: 17, len: 1 },
  { expr: '', reason: 'expected identifier character', col: 0, len: 0 },
  { expr: 'ip.src == 1.2.3.0/24', reason: "couldn't parse address in network: invalid IP address syntax", col: 10, len: 10 },
  { expr: 'ip.src in {1.2.3.4/24}', reason: 'host part of address was not zero', col: 11, len: 7 },
  { expr: 'ip.src in {10.0.0.0/100}', reason: 'invalid length for network: Network length 100 is too long for Ipv4 (maximum: 32)', col: 11, len: 12 },
  { expr: 'ip.src in {::/129}', reason: 'invalid length for network: Network length 129 is too long for Ipv6 (maximum: 128)', col: 11, len: 6 },
  { expr: 'ip.src in {1.2.3.0/}', reason: "couldn't parse length in network: cannot parse integer from empty string", col: 19, len: 0 },
  { expr: 'ip.src in {10.0.0.255..10.0.0.0}', reason: 'incompatible range bounds', col: 11, len: 20 },
  { expr: 'ip.src in {10.0.0.0..::1}', reason: 'incompatible range bounds', col: 11, len: 13 },
  { expr: 'ip.src in {1.2.3.4, 5.6.7.8}', reason: 'expected IP address character', col: 18, len: 10 },
  { expr: 'tcp.dstport in {80, 443}', reason: 'expected digit', col: 18, len: 6 },
  { expr: 'tcp.dstport in {10..1}', reason: 'incompatible range bounds', col: 16, len: 5 },
  { expr: 'tcp.dstport in {1..}', reason: 'expected digit', col: 19, len: 1 },
  { expr: 'tcp.dstport in { 1 .. 5 }', reason: 'expected digit', col: 19, len: 6 },
  { expr: 'tcp.dstport in {80 443', reason: 'expected digit', col: 22, len: 0 },
  { expr: 'tcp.dstport == 99999999999999999999', reason: 'number too large to fit in target type while parsing with radix 10', col: 15, len: 20 },
  { expr: 'tcp.dstport == 08', reason: 'invalid digit found in string while parsing with radix 8', col: 15, len: 2 },
  { expr: 'tcp.dstport == 0x', reason: 'expected digit', col: 17, len: 0 },
  { expr: 'tcp.dstport 80', reason: 'expected ComparisonOp', col: 12, len: 2 },
  { expr: 'tcp.dstport EQ 80', reason: 'expected ComparisonOp', col: 12, len: 5 },
  { expr: 'http.host', reason: 'expected ComparisonOp', col: 9, len: 0 },
  { expr: 'tcp.dstport contains 80', reason: 'cannot perform this operation on type Int', col: 12, len: 8 },
  { expr: 'ip.src contains "a"', reason: 'cannot perform this operation on type Ip', col: 7, len: 8 },
  { expr: 'http.host & 1', reason: 'cannot perform this operation on type Bytes', col: 10, len: 1 },
  { expr: 'tcp.dstport in $ports', reason: 'cannot perform this operation on type Int', col: 12, len: 9 },
  { expr: 'ip.src in $Bad', reason: 'invalid list name "B"', col: 11, len: 3 },
  { expr: 'ip.src in 1.2.3.4', reason: 'expected literal "{"', col: 10, len: 7 },
  { expr: 'ssl == true', reason: 'unrecognised input', col: 3, len: 8 },
  { expr: 'ssl AND ssl', reason: 'unrecognised input', col: 3, len: 8 },
  { expr: 'ssl\tand ssl', reason: 'unrecognised input', col: 3, len: 8 },
  { expr: 'ssl and and ssl', reason: 'unknown identifier', col: 8, len: 3 },
  { expr: 'ssl xor', reason: 'expected identifier character', col: 7, len: 0 },
  { expr: 'ip.src == 1.2.3.4 or', reason: 'expected identifier character', col: 20, len: 0 },
  { expr: '()', reason: 'expected identifier character', col: 1, len: 1 },
  { expr: '(ssl))', reason: 'unrecognised input', col: 5, len: 1 },
  { expr: 'nothing', reason: 'unknown identifier', col: 3, len: 4 },
  { expr: 'tcp.dstport == 80and ssl', reason: 'invalid digit found in string while parsing with radix 10', col: 15, len: 3 },
  { expr: 'ip.src == 1.2.3.4and ssl', reason: "couldn't parse address in network: invalid IP address syntax", col: 10, len: 8 },
  { expr: 'http.host == example.com', reason: 'invalid digit found in string while parsing with radix 16', col: 13, len: 2 },
  { expr: 'http.host == "a\\n"', reason: 'expected ", xHH or OOO after \\', col: 16, len: 1 },
  { expr: 'http.host == "abc', reason: 'could not find an ending quote', col: 14, len: 3 },
  { expr: 'http.host == rabc', reason: 'expected " or #', col: 14, len: 3 },
  { expr: 'http.host == "\\x4"', reason: 'invalid digit found in string while parsing with radix 16', col: 16, len: 2 },
  { expr: 'http.host in {"a","b"}', reason: 'invalid digit found in string while parsing with radix 16', col: 17, len: 2 },
  { expr: 'http.host == 61', reason: 'expected 1 characters, but found 0', col: 15, len: 0 },
  { expr: 'http.host strict wildcard "**"', reason: 'wildcard contains a double star', col: 26, len: 4 },
  { expr: 'http.cookies == "a"', reason: `cannot perform this operation on type ${ARRAY_BYTES}`, col: 13, len: 2 },
  { expr: 'http.cookies[*] == "a"', reason: 'expected value of type Bool, but got Array<Bool>', col: 22, len: 0 },
  { expr: 'http.headers[0] == "a"', reason: `cannot access index ArrayIndex(0) for type ${MAP_BYTES}`, col: 12, len: 3 },
  { expr: 'http.headers["a"', reason: 'expected literal "]"', col: 16, len: 0 },
  { expr: 'http.headers ["a"] == "b"', reason: 'expected ComparisonOp', col: 13, len: 12 },
  { expr: 'flags', reason: 'expected value of type Bool, but got Array<Bool>', col: 5, len: 0 },
  { expr: 'flags and ssl', reason: 'expected value of type Array<Bool>, but got Bool', col: 13, len: 0 },
  { expr: 'ssl and flags or ssl', reason: 'expected value of type Bool, but got Array<Bool>', col: 17, len: 3 },
  { expr: 'any(ssl)', reason: 'expected value of type Array<Bool>, but got Bool', col: 4, len: 3 },
  { expr: 'concat(http.host "a") == "b"', reason: 'expected literal ","', col: 17, len: 11 },
  { expr: `${'('.repeat(129)}ssl${')'.repeat(129)}`, reason: 'maximum nesting depth exceeded (limit: 128)', col: 128, len: 133 },
  { expr: 'http.host == "é" and foo', reason: 'unknown identifier', col: 22, len: 3 },
  { expr: 'http.host == 61 x', reason: 'expected byte separator', col: 15, len: 1 },
  { expr: 'http.host matches 61:62', reason: 'expected " or r', col: 18, len: 5 },
  { expr: 'ip. == 1', reason: 'expected identifier character', col: 3, len: 5 },
  { expr: 'concat(http.cookies[*], http.cookies[*]) == "a"', reason: 'invalid use of map each access operator', col: 24, len: 15 },
  { expr: '1 == 1', reason: 'unknown identifier', col: 0, len: 1 },
  { expr: 'tcp.dstport == 0xefg', reason: 'unrecognised input', col: 19, len: 1 },
  { expr: 'http.host matches "(a" and ssl', reason: '', partial: ['regex parse error:', 'unclosed group'], col: 19, len: 2 },
  { expr: 'http.host matches r"(a" and ssl', reason: '', partial: ['regex parse error:'], col: 23, len: 8 },
  { expr: 'http.host matches r"(a"', reason: '', partial: ['regex parse error:'], col: 23, len: 0 },
  { expr: 'http.host matches "(?=a)"', reason: '', partial: ['look-around'], col: 19, len: 5 },
  { expr: 'http.host matches "\\1"', reason: '', partial: ['backreferences'], col: 19, len: 2 },
  { expr: 'http.host wildcard "a\\\\b"', reason: '', partial: ['invalid wildcard:'], col: 19, len: 6 },
  { expr: 'http.host == r##"a"#', reason: 'could not find an ending quote', col: 14, len: 6 },
  { expr: `http.host == r${'#'.repeat(256)}"a"`, reason: "invalid raw string hash count, there can't be more than 255 #s", col: 14, len: 259 },
  { expr: 'http.host == "\\777"', reason: 'number too large to fit in target type while parsing with radix 8', col: 15, len: 3 },
  { expr: 'http.host == "\\x4é"', reason: 'invalid digit found in string while parsing with radix 16', col: 16, len: 3 },
  { expr: 'tcp.dstport == -99999999999999999999', reason: 'number too small to fit in target type while parsing with radix 10', col: 15, len: 21 },
  { expr: 'http.cookies[0] == 1', reason: 'expected 2 characters, but found 1', col: 19, len: 1 },
  { expr: '   ', reason: 'expected identifier character', col: 0, len: 0 },
  { expr: 'ssl and\ntcp.dstport == "80"', reason: 'expected digit', col: 15, len: 4, line: 2 },
  { expr: '(\n    tcp.dstport == 42\n    or\n    tcp.dstport == "abc"\n)\n', reason: 'expected digit', col: 19, len: 5, line: 4 },
];

describe('§5a unit-test vectors', () => {
  it.each(UNIT_VECTORS.map((v) => [JSON.stringify(v.expr), v] as const))('%s', (_, v) => checkBad(v));
});

describe('§5b and §3.4 engine-run vectors (scheme S)', () => {
  it.each(RUN_VECTORS.map((v) => [JSON.stringify(v.expr), v] as const))('%s', (_, v) => checkBad(v));
});

describe('§3.4 worked examples, byte for byte', () => {
  const worked: Array<[string, string]> = [
    ['ip.src==34', 'Filter parsing error (1:9):\nip.src==34\n        ^^ couldn\'t parse address in network: invalid IP address syntax\n'],
    ['ip.src in {2400:cb00::/2000}', 'Filter parsing error (1:24):\nip.src in {2400:cb00::/2000}\n                       ^^^^ couldn\'t parse length in network: number too large to fit in target type\n'],
    ['ip.src in {1.2.3.4 1.2.3.}', 'Filter parsing error (1:20):\nip.src in {1.2.3.4 1.2.3.}\n                   ^^^^^^ couldn\'t parse address in network: invalid IP address syntax\n'],
    ['foo == 1', 'Filter parsing error (1:1):\nfoo == 1\n^^^ unknown identifier\n'],
    ['tcp.dstport == "80"', 'Filter parsing error (1:16):\ntcp.dstport == "80"\n               ^^^^ expected digit\n'],
    ['(ip.src == 1.2.3.4', 'Filter parsing error (1:19):\n(ip.src == 1.2.3.4\n                  ^ expected literal ")"\n'],
    ['ip.src == 1.2.3.4)', 'Filter parsing error (1:18):\nip.src == 1.2.3.4)\n                 ^ unrecognised input\n'],
    ['', 'Filter parsing error (1:1):\n\n^ expected identifier character\n'],
    ['   ', 'Filter parsing error (1:1):\n   \n^ expected identifier character\n'],
    ['ip.src == 1.2.3.0/24', 'Filter parsing error (1:11):\nip.src == 1.2.3.0/24\n          ^^^^^^^^^^ couldn\'t parse address in network: invalid IP address syntax\n'],
    ['ssl and\ntcp.dstport == "80"', 'Filter parsing error (2:16):\ntcp.dstport == "80"\n               ^^^^ expected digit\n'],
    ['(\n    tcp.dstport == 42\n    or\n    tcp.dstport == "abc"\n)\n', 'Filter parsing error (4:20):\n    tcp.dstport == "abc"\n                   ^^^^^ expected digit\n'],
    ['xyz\n', 'Filter parsing error (1:1):\nxyz\n^^^ unknown identifier\n'],
    ['\n\n    xyz', 'Filter parsing error (3:5):\n    xyz\n    ^^^ unknown identifier\n'],
  ];
  it.each(worked)('%j', (expr, message) => {
    const err = failure(expr, expr.includes('xyz') ? UNIT : S);
    expect(err.message).toBe(message);
  });

  it('columns and carets count UTF-8 bytes, and the error carries byte offsets and a stable code', () => {
    const err = failure('http.host == "é" and foo', S);
    expect(err.message).toBe('Filter parsing error (1:23):\nhttp.host == "é" and foo\n                      ^^^ unknown identifier\n');
    expect([err.code, err.start, err.end]).toEqual(['unknown_identifier', 22, 25]);
  });
});

describe('valid vectors', () => {
  // each with the canonical text of what it parses to: literals decoded (hex and octal ints, escapes,
  // short IPv4 addresses, colon-separated bytes), spellings normalised (&&, !, words run together)
  const valid: Array<[string, Scheme, string]> = [
    ['tcp.dstport in {1..70000}', S, 'tcp.dstport in {1..70000}'],
    ['ip.src in {1.2.3.0/24}', S, 'ip.src in {1.2.3.0/24}'],
    ['tcp.dstport in {}', S, 'tcp.dstport in {}'],
    ['tcp.dstport in {-5..-1 0x10 010}', S, 'tcp.dstport in {-5..-1 16 8}'],
    ['ssl or order and ssl', S, 'ssl or order and ssl'],
    ['http.host == "\\x41\\101\\"\\\\"', S, 'http.host == "AA\\"\\\\"'],
    ['any(http.cookies[*] == "a")', S, 'any(http.cookies[*] == "a")'],
    ['ssl andssl', S, 'ssl and ssl'],
    [`${'('.repeat(128)}ssl${')'.repeat(128)}`, S, `${'('.repeat(128)}ssl${')'.repeat(128)}`],
    ['http.host >= 10:20:30:40:50:60:70:80', S, 'http.host >= "\\x10 0@P`p\\x80"'],
    ['ssl&&ssl', S, 'ssl and ssl'],
    ['tcp.dstport==80&&ssl', S, 'tcp.dstport == 80 and ssl'],
    ['http.host in {"a"}and ssl', S, 'http.host in {"a"} and ssl'],
    ['ip.src in {10 192.168 1.2.3/24 1.1.1.01}', S, 'ip.src in {10.0.0.0 192.168.0.0 1.2.3.0/24 1.1.1.1}'],
    ['t and (t or (t and t))', LOGICAL, 't and (t or (t and t))'],
    ['((t))', LOGICAL, '((t))'],
    ['!!t', LOGICAL, 'not not t'],
    ['! (not !t)', LOGICAL, 'not (not not t)'],
    ['any(at and af)', LOGICAL, 'any(at and af)'],
    ['not t && f', LOGICAL, 'not t and f'],
    ['tcp.port in { 80 443 2082..2083 }', UNIT, 'tcp.port in {80 443 2082..2083}'],
    ['ip.addr in { 127.0.0.0/8 ::1 10.0.0.0..10.0.255.255 }', UNIT, 'ip.addr in {127.0.0.0/8 ::1 10.0.0.0..10.0.255.255}'],
    ['ip.src < ::1', S, 'ip.src < ::1'],
    ['http.host matches "^a.c$"', S, 'http.host matches r"^a.c$"'],
    ['http.host wildcard "*.EXAMPLE.com"', S, 'http.host wildcard "*.EXAMPLE.com"'],
    ['ip.src in $blocked', S, 'ip.src in $blocked'],
  ];
  it.each(valid)('%j parses to %s', (expr, scheme, canonical) => {
    expect(printExpr(parse(expr, scheme))).toBe(canonical);
  });

  // the logical vectors evaluated where grouping shows: `not` binds tighter than `&&`, `!` nests
  const logical: Array<[string, boolean]> = [
    ['t and (t or (t and t))', true],
    ['((t))', true],
    ['!!t', true],
    ['! (not !t)', false],
    ['any(at and af)', true],
    ['not t && f', false],
    ['not f && t', true],
  ];
  it.each(logical)('%j is %s for t = true, f = false, at = [true true], af = [true false]', (expr, value) => {
    const p = packet(LOGICAL, { t: true, f: false, at: [true, true], af: [true, false] });
    expect(interpret(parse(expr, LOGICAL), objectBinding(LOGICAL), p)).toBe(value);
  });
});
