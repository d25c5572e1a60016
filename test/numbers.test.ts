// Digits grouped in threes, written without Intl, exactly as toLocaleString('en-US') writes them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counted, groupDigits } from '../src/numbers.js';

describe('numbers for people', () => {
  it('groups the digits of any whole number as toLocaleString("en-US") does', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (v) => {
      expect(groupDigits(v)).toBe(v.toLocaleString('en-US'));
    }));
    for (const v of [0, 7, 999, 1000, -1000, 123456, 1234567, 1e15, -0, Number.MAX_SAFE_INTEGER]) expect(groupDigits(v)).toBe(v.toLocaleString('en-US'));
  });

  it('writes other numbers as toLocaleString("en-US") does', () => {
    for (const v of [1.5, -2.25, 1e21, NaN, Infinity]) expect(groupDigits(v)).toBe(v.toLocaleString('en-US'));
  });

  it('writes a count with its noun, singular for exactly one', () => {
    fc.assert(fc.property(fc.nat(), (v) => {
      expect(counted(v, 'packet')).toBe(`${v.toLocaleString('en-US')} ${v === 1 ? 'packet' : 'packets'}`);
    }));
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
    expect(counted(1200, 'entry', 'entries')).toBe('1,200 entries');
  });
});
