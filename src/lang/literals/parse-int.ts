// Rust's `from_str_radix`, digit by digit, so that the first problem wins exactly as in Rust:
// an invalid digit before an overflow gives "invalid digit", an overflow before a bad digit gives
// "number too large". Returns the value or the ParseIntError text.

export const INT_ERRORS = {
  empty: 'cannot parse integer from empty string',
  invalid: 'invalid digit found in string',
  tooLarge: 'number too large to fit in target type',
  tooSmall: 'number too small to fit in target type',
} as const;

export const I64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n, signed: true } as const;
export const U8 = { min: 0n, max: 255n, signed: false } as const;
export const U32 = { min: 0n, max: 2n ** 32n - 1n, signed: false } as const;

export interface IntTarget {
  readonly min: bigint;
  readonly max: bigint;
  readonly signed: boolean;
}

function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + 10;
  return 99;
}

export function parseRadix(text: string, radix: number, target: IntTarget): bigint | string {
  if (text.length === 0) return INT_ERRORS.empty;
  let i = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 0x2b || (first === 0x2d && target.signed)) {
    if (text.length === 1) return INT_ERRORS.invalid;
    negative = first === 0x2d;
    i = 1;
  }
  const r = BigInt(radix);
  let value = 0n;
  for (; i < text.length; i++) {
    const d = digitValue(text.charCodeAt(i));
    if (d >= radix) return INT_ERRORS.invalid;
    value = negative ? value * r - BigInt(d) : value * r + BigInt(d);
    if (value > target.max) return INT_ERRORS.tooLarge;
    if (value < target.min) return INT_ERRORS.tooSmall;
  }
  return value;
}
