// The language server's positions inside an expression: the engine's ranges are UTF-8 bytes of the
// value, an editor's are UTF-16 units of the document. utf16Index and byteIndex convert between the
// two (checked against TextEncoder, code point by code point, over any Unicode text: emoji, CJK,
// accents); a hosted expression maps each UTF-16 index of its value to where the document writes it,
// and where it cannot, every index falls on the host string's ends, never on a wrong character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteIndex, hosted, kindAt, utf16Index } from '../../src/lsp/hosts/hosted.js';

const utf8 = new TextEncoder();

/**
 * Each code point's UTF-16 start index with the UTF-8 byte offset where it starts (TextEncoder's: a
 * lone surrogate is U+FFFD, 3 bytes, as Buffer and the engine write it), and the end.
 */
function boundaries(text: string): Array<{ index: number; byte: number }> {
  const out: Array<{ index: number; byte: number }> = [];
  let index = 0;
  for (const cp of text) {
    out.push({ index, byte: utf8.encode(text.slice(0, index)).length });
    index += cp.length;
  }
  out.push({ index, byte: utf8.encode(text).length });
  return out;
}

/** the last code point of each UTF-8 length and the first of the next; lone surrogates of both halves */
const EDGES = ['\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10ffff}', '\ud800', '\udbff', '\udc00', '\udfff'];
const anyText = fc.string({
  unit: fc.oneof(fc.constantFrom('a', ' ', '"', 'é', '€', '中', '😀', '𝄞', ...EDGES), fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c))),
  maxLength: 24,
});

describe('UTF-8 bytes and UTF-16 units of an expression', () => {
  it('byteIndex gives the UTF-8 offset of every code point, and utf16Index takes it back to the same character', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        for (const { index, byte } of boundaries(text)) {
          expect(byteIndex(text, index)).toBe(byte);
          expect(utf16Index(text, byte)).toBe(index);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a byte inside a character maps to the character after it, and a byte past the end to the end', () => {
    fc.assert(
      fc.property(anyText, fc.nat(120), (text, byte) => {
        const next = boundaries(text).find((b) => b.byte >= byte);
        expect(utf16Index(text, byte)).toBe(next === undefined ? text.length : next.index);
      }),
      { numRuns: 400 },
    );
    expect(utf16Index('é!', 1)).toBe(1);
    expect(utf16Index('😀!', 2)).toBe(2);
    expect(utf16Index('😀!', 4)).toBe(2);
    expect(utf16Index('€', 9)).toBe(1);
    // a lone high surrogate before another character is one character of 3 bytes, not half of a pair
    expect(utf16Index('\ud800a', 3)).toBe(1);
    expect(utf16Index('a\ud800', 4)).toBe(2);
    expect(utf16Index('\u0080b', 2)).toBe(1);
  });
});

describe('a hosted expression', () => {
  const fields = { value: 'ip.src == 1', kind: 'rule' as const, start: 100, end: 113, uncheckable: null, owner: ['rules', 0, 'expression'] };

  it('maps each UTF-16 index of its value to the document offset it was written at, and clamps outside the value', () => {
    const offsets = Array.from({ length: fields.value.length + 1 }, (_, i) => 101 + 2 * i);
    const h = hosted(fields, offsets);
    expect(h.inexact).toBeNull();
    for (let i = 0; i <= fields.value.length; i++) expect(h.at(i)).toBe(101 + 2 * i);
    expect(h.at(-5)).toBe(101);
    expect(h.at(fields.value.length + 7)).toBe(101 + 2 * fields.value.length);
    expect(h.encode('x"y')).toBe('x"y');
  });

  it('covers the whole host string, and says why, where the positions are not mapped or do not fit the value', () => {
    for (const offsets of [null, [1, 2, 3]]) {
      const h = hosted(fields, offsets);
      expect(h.inexact).toBe('the positions inside this string are not mapped');
      expect([h.at(0), h.at(3), h.at(fields.value.length - 1)]).toEqual([100, 100, 100]);
      expect([h.at(fields.value.length), h.at(fields.value.length + 1)]).toEqual([113, 113]);
    }
    expect(hosted(fields, null, 'a folded YAML scalar').inexact).toBe('a folded YAML scalar');
    const encode = (t: string) => JSON.stringify(t).slice(1, -1);
    expect(hosted({ ...fields, encode }, null).encode('a"b')).toBe('a\\"b');
  });

  it('is read with the filter scheme under an ATP filter, with the rule scheme elsewhere', () => {
    expect(kindAt(['syn_protection', 'filters', 0, 'expression'])).toBe('filter');
    expect(kindAt(['rulesets', 0, 'rules', 2, 'expression'])).toBe('rule');
  });
});
