// What completion reads from the text before the caret: never a failure, whatever was typed, and the
// right kind of word for the usual places.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wantAt, wordAt } from '../../src/lsp/features/context.js';

describe('wantAt', () => {
  it('answers for any text and any caret', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 't', '.', ' ', '2', '=', '$', '{', '}', '(', ')', '"', 'n', 'd', '!', '&', '\n'), maxLength: 40 }), fc.nat(), (text, at) => {
        const want = wantAt(text, at % (text.length + 1));
        expect(want.from).toBeGreaterThanOrEqual(0);
        expect(want.from).toBeLessThanOrEqual(at % (text.length + 1));
        expect(wordAt(text, at % (text.length + 1))?.start ?? 0).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('asks for a field at the start, after a logical operator and after a parenthesis', () => {
    for (const text of ['', 'tc', 'tcp.dstport == 22 and ', 'tcp.dstport == 22 and ip.s', 'not (', '(ip.src in {10.0.0.0/8} or t']) expect(wantAt(text, text.length).kind).toBe('start');
  });

  it('asks for an operator after a field, for values after an operator or in a set, for a list after $, else for and/or', () => {
    expect(wantAt('tcp.dstport ', 12)).toEqual({ kind: 'operator', field: 'tcp.dstport', from: 12 });
    expect(wantAt('ip.proto == "u', 14)).toEqual({ kind: 'value', field: 'ip.proto', from: 12 });
    expect(wantAt('ip.src.country in {"KP" "I', 26)).toEqual({ kind: 'value', field: 'ip.src.country', from: 24 });
    expect(wantAt('ip.src in $off', 14)).toEqual({ kind: 'list', from: 11 });
    expect(wantAt('tcp.dstport == 22 ', 18).kind).toBe('logical');
    expect(wantAt('tcp.dstport in {22} ', 20).kind).toBe('logical');
  });
});
