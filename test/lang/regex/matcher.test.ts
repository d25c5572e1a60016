// The `matches` matcher (src/lang/regex/) against an independent oracle and the reference engine's
// documented behaviour:
// - differential: random patterns built from a grammar where Rust's syntax and JavaScript's agree
//   (literals, `.` as "not \n", classes, \d \w \s, \b \B, ^ $ with and without m, i, groups,
//   alternation, * + ? {m,n}), rendered once for each engine; over random byte strings our
//   automaton and a JS RegExp on the latin1 text answer alike;
// - Rust-only syntax JS cannot check: nested classes and set operations, POSIX classes, \A \z,
//   scoped flags, `\<` `\>`, repetition of an assertion;
// - what the reference rejects, with its texts, including its compiled-size limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../../../src/lang/regex/compile.js';
import { FilterError, FIREWALL_SCHEME, parse } from '../../../src/lang/index.js';

const latin1 = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));

function matches(pattern: string, value: string): boolean {
  const re = compileRegex(pattern);
  if (typeof re === 'string') throw new Error(re);
  const bytes = latin1(`xx${value}yy`);
  return re.test(bytes, 2, bytes.length - 2);
}

/** A pattern in both syntaxes. */
interface Both {
  rust: string;
  js: string;
}

const ALPHABET = ['a', 'b', 'A', 'B', '0', '_', ' ', '-', '\n', '.', '\x80', '\xff'];
const escapeMeta = (c: string) => (/[\\.+*?()|[\]{}^$-]/.test(c) ? `\\${c}` : c === '\n' ? '\\n' : c === '\x80' ? '\\x80' : c === '\xff' ? '\\xff' : c);

const atom: fc.Arbitrary<Both> = fc.oneof(
  { arbitrary: fc.constantFrom(...ALPHABET).map((c) => ({ rust: escapeMeta(c), js: escapeMeta(c) })), weight: 5 },
  fc.constant({ rust: '.', js: '[^\\n]' }),
  fc.constantFrom('[ab]', '[^a\\n]', '[a-c0]', '[^-]', '[_\\-]', '[\\x80-\\xff]', '\\d', '\\w', '\\s', '\\W', '\\S', '\\D').map((c) => ({ rust: c, js: c })),
  fc.constantFrom('^', '$', '\\b', '\\B').map((c) => ({ rust: c, js: c })),
);

const { tree } = fc.letrec<{ tree: Both; piece: Both }>((tie) => ({
  piece: fc.oneof(
    { arbitrary: atom, weight: 4 },
    fc.tuple(tie('tree'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}', '*?', '+?')).map(([t, q]) => ({
      rust: `(?:${t.rust})${q}`,
      js: `(?:${t.js})${q}`,
    })),
  ),
  tree: fc.oneof(
    { arbitrary: fc.array(tie('piece'), { minLength: 1, maxLength: 4 }).map((ps) => ({ rust: ps.map((p) => p.rust).join(''), js: ps.map((p) => p.js).join('') })), weight: 3 },
    fc.array(tie('piece'), { minLength: 2, maxLength: 3 }).map((ps) => ({ rust: ps.map((p) => p.rust).join('|'), js: ps.map((p) => p.js).join('|') })),
  ),
}));

const value = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((cs) => cs.join(''));

describe('regex matcher ≡ JS RegExp on the syntax both share', () => {
  it('random patterns × random byte strings, with flags i and m', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom('', 'i', 'm', 'im'), fc.array(value, { minLength: 1, maxLength: 8 }), (p, flags, values) => {
        const rust = flags ? `(?${flags})${p.rust}` : p.rust;
        const js = new RegExp(p.js, flags);
        for (const v of values) expect(matches(rust, v), `${rust} on ${JSON.stringify(v)}`).toBe(js.test(v));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('Rust syntax', () => {
  const cases: [string, string, boolean][] = [
    ['[a-z&&[^aeiou]]', 'e', false],
    ['[a-z&&[^aeiou]]', 'x', true],
    ['[a-z--b]', 'b', false],
    ['[a-c~~b-d]', 'b', false],
    ['[a-c~~b-d]', 'd', true],
    ['[[:^alpha:]]', 'abc', false],
    ['[[:^alpha:]]', 'ab1', true],
    ['[a[0-9]]', '5', true],
    ['[\\D]', '5', false],
    ['\\Aab\\z', 'ab', true],
    ['\\Aab\\z', 'ab\n', false],
    ['a(?i)b', 'aB', true],
    ['(?i)a(?-i)b', 'AB', false],
    ['(?i:a)b', 'Ab', true],
    ['(?i:a)b', 'AB', false],
    ['(?s).', '\n', true],
    ['.', '\n', false],
    ['.', '\r', true],
    ['\\<ab\\>', 'x ab y', true],
    ['\\<ab\\>', 'xab', false],
    ['^*a', 'a', true],
    ['a**', 'b', true],
    ['(?P<n>a)b', 'ab', true],
    ['(?<n>a)b', 'ab', true],
    ['(?U)a+', 'a', true],
    ['é', 'café', true],
    ['\\xe9', '\xe9', true],
    ['(?i)\\xc9', '\xe9', false],
    ['', '', true],
    ['a{0}', '', true],
    ['(?m)b$', 'a\nb\nc', true],
    ['b$', 'a\nb\nc', false],
  ];
  it.each(cases)('%j on %j is %s', (pattern, v, expected) => {
    expect(matches(pattern, v)).toBe(expected);
  });
});

describe('what the reference engine rejects', () => {
  const cases: [string, string][] = [
    ['a{4294967295}', 'Compiled regex exceeds size limit of 10485760 bytes.'],
    ['(?:a{1000}){1000}', 'Compiled regex exceeds size limit of 10485760 bytes.'],
    ['a{4294967296}', 'decimal literal invalid'],
    ['(a', 'unclosed group'],
    ['a)', 'unopened group'],
    ['*a', 'repetition operator missing expression'],
    ['(?i)*', 'repetition operator missing expression'],
    ['a{2,1}', 'invalid repetition count range, the start must be <= the end'],
    ['a{2', 'unclosed counted repetition'],
    ['a{x}', 'repetition quantifier expects a valid decimal'],
    ['(?=a)', 'look-around, including look-ahead and look-behind, is not supported'],
    ['(?<!a)', 'look-around, including look-ahead and look-behind, is not supported'],
    ['(a)\\1', 'backreferences are not supported'],
    ['\\pL', 'Unicode not allowed here'],
    ['\\x{100}', 'Unicode not allowed here'],
    ['[é]', 'Unicode not allowed here'],
    ['(?u)a', 'Unicode not allowed here'],
    ['\\q', 'unrecognized escape sequence'],
    ['[a', 'unclosed character class'],
    ['[z-a]', 'invalid character class range, the start must be <= the end'],
    ['a\\', 'incomplete escape sequence, reached end of pattern prematurely'],
    ['(?z)', 'unrecognized flag'],
    ['(?P<n>a)(?P<n>b)', 'duplicate capture group name'],
    ['(?i-)', 'dangling flag negation operator'],
    [`${'('.repeat(251)}a${')'.repeat(251)}`, 'exceed the maximum number of nested parentheses/brackets (250)'],
  ];
  it.each(cases)('%j: %s', (pattern, text) => {
    const problem = compileRegex(pattern);
    expect(typeof problem).toBe('string');
    expect((problem as string).split('\n').at(-1)!.replace(/^error: /, '')).toBe(text);
  });

  it('a too-big pattern is a parse error of the expression, spanning the pattern', () => {
    let err: unknown;
    try {
      parse('udp matches "a{4294967295}"', FIREWALL_SCHEME);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FilterError);
    expect((err as FilterError).message).toBe(
      'Filter parsing error (1:14):\nudp matches "a{4294967295}"\n             ^^^^^^^^^^^^^ Compiled regex exceeds size limit of 10485760 bytes.\n',
    );
  });

  it('the caret points at the failing character, counted in characters of the pattern', () => {
    const utf8AsLatin1 = Buffer.from('é(a', 'utf8').toString('latin1');
    expect(compileRegex(utf8AsLatin1)).toBe('regex parse error:\n    é(a\n     ^\nerror: unclosed group');
  });
});
