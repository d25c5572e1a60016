// The byte-string operations on views (src/lang/eval/bytes.ts) against a naive model on copies:
// a view is a window [start, end) of a larger array (a packet's tcp payload inside its frame), so the
// bytes around it — at the start of the array or after bytes, and followed by bytes that would
// match — must never count. The model copies the window out and compares strings: `contains` by
// indexOf, a wildcard as an anchored regex of its literal segments, ASCII letters folded (A-Z only)
// unless strict.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareView, containsView, equalsView, wildcardMatchView } from '../../src/lang/eval/bytes.js';
import { parseWildcard, type WildcardPattern } from '../../src/lang/literals/wildcard.js';

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const bytesOf = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
const foldAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function pattern(text: string): WildcardPattern {
  const w = parseWildcard(bytesOf(text));
  if (typeof w === 'string') throw new Error(`test pattern ${text}: ${w}`);
  return w;
}

/** the naive wildcard: the whole value, `*` any run, letters A-Z folded unless strict */
function naiveWildcard(value: string, w: WildcardPattern, caseless: boolean): boolean {
  const f = caseless ? foldAscii : (s: string) => s;
  const escaped = w.segments.map((s) => f(latin1(s)).replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`));
  return new RegExp(`^${escaped.join('.*')}$`, 's').test(f(value));
}

function naiveCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// bytes near the ASCII letters, where folding is decided (`@` `A` `Z` `[` and `` ` `` `a` `z` `{`),
// punctuation 32 below a letter-adjacent byte (`?` `_`, `;` `[`), and a few letters, so matches are frequent
const ALPHABET = ['a', 'b', 'A', 'B', 'z', 'Z', '@', '[', '`', '{', '?', '_', ';', '\xe9', '\xc9'];
const text = (maxLength: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength }).map((cs) => cs.join(''));
const wildcardText = fc.array(fc.oneof(fc.constantFrom(...ALPHABET), fc.constant('*')), { maxLength: 7 })
  .map((cs) => cs.join('').replace(/\*{2,}/g, '*'));

/** the value at `before` bytes into an array, followed by `after` bytes */
const windowed = fc.record({ value: text(8), before: text(3), after: text(4) });
function place({ value, before, after }: { value: string; before: string; after: string }): [Uint8Array, number, number] {
  return [bytesOf(before + value + after), before.length, before.length + value.length];
}

describe('byte views against a naive model on copies', () => {
  it('compare and equals see only the window', () => {
    fc.assert(fc.property(windowed, text(8), (w, other) => {
      const [a, start, end] = place(w);
      expect(Math.sign(compareView(a, start, end, bytesOf(other)))).toBe(naiveCompare(w.value, other));
      expect(equalsView(a, start, end, bytesOf(other))).toBe(w.value === other);
    }), { numRuns: 2000 });
  });

  it('contains finds a needle only inside the window', () => {
    fc.assert(fc.property(windowed, text(3), (w, needle) => {
      const [a, start, end] = place(w);
      expect(containsView(a, start, end, bytesOf(needle))).toBe(w.value.includes(needle));
    }), { numRuns: 3000 });
  });

  it('wildcard matches the whole window, folding only A-Z unless strict', () => {
    fc.assert(fc.property(windowed, wildcardText, fc.boolean(), (w, p, caseless) => {
      const [a, start, end] = place(w);
      const pat = pattern(p);
      expect(wildcardMatchView(a, start, end, pat, caseless), `${JSON.stringify(p)} on ${JSON.stringify(w)}`).toBe(naiveWildcard(w.value, pat, caseless));
    }), { numRuns: 5000 });
  });

  it.each([
    // [pattern, value, caseless, matches]
    ['abc', 'abcd', true, false],
    ['abc', 'ab', true, false],
    ['ab*ba', 'aba', true, false],
    ['ab*b*c', 'abc', true, false],
    ['a*b*bc', 'abc', true, false],
    ['*b*c', 'bc', true, true],
    ['z', 'Z', true, true],
    ['Z', 'z', false, false],
    ['a_b', 'a?b', true, false],
    ['a[b', 'a;b', true, false],
    ['\xe9', '\xc9', true, false],
  ] as const)('wildcard %j on %j (caseless %s): %s', (p, value, caseless, matches) => {
    const v = bytesOf(value);
    expect(wildcardMatchView(v, 0, v.length, pattern(p), caseless)).toBe(matches);
  });

  it('contains does not find a needle that runs past the end of the window', () => {
    const a = bytesOf('xxabcdef');
    expect(containsView(a, 2, 5, bytesOf('cd'))).toBe(false);
    expect(containsView(a, 2, 5, bytesOf('bc'))).toBe(true);
    expect(containsView(a, 2, 5, bytesOf('de'))).toBe(false);
  });
});
