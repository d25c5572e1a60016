// The expression being parsed, as UTF-8 bytes. The reference engine is a scannerless parser over a
// Rust `&str`: every construct consumes a prefix of the remaining input and every error carries a
// sub-slice of the original text, so positions, spans, columns and caret counts are all in UTF-8
// bytes. Working on the encoded bytes with integer positions reproduces that exactly; a position is
// "the rest of the input from here", and `end` is the end of the trimmed input.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Rust's char::is_whitespace (Unicode White_Space), used by str::trim; differs from JS trim(),
// which also strips U+FEFF and does not strip U+0085.
const RUST_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

export class Source {
  readonly bytes: Uint8Array;
  /** byte offset where the trimmed input starts */
  readonly start: number;
  /** byte offset where the trimmed input ends */
  readonly end: number;

  constructor(readonly text: string) {
    this.bytes = encoder.encode(text);
    let s = 0;
    while (s < this.bytes.length && RUST_WHITESPACE.has(this.codePointAt(s))) s = this.charEnd(s);
    if (s === this.bytes.length) {
      // all whitespace: Rust's trim() yields the empty slice at offset 0
      this.start = 0;
      this.end = 0;
      return;
    }
    let e = this.bytes.length;
    for (;;) {
      const b = this.charStart(e);
      if (b <= s || !RUST_WHITESPACE.has(this.codePointAt(b))) break;
      e = b;
    }
    this.start = s;
    this.end = e;
  }

  /** The byte at pos, or -1 at the end of the (trimmed) input. */
  at(pos: number): number {
    return pos < this.end ? this.bytes[pos] : -1;
  }

  /** Whether the input at pos starts with the ASCII literal. */
  startsWith(pos: number, literal: string): boolean {
    if (pos + literal.length > this.end) return false;
    for (let i = 0; i < literal.length; i++) if (this.bytes[pos + i] !== literal.charCodeAt(i)) return false;
    return true;
  }

  /** Skips the engine's whitespace: only ' ', '\r' and '\n' (a tab is not whitespace). */
  skipSpace(pos: number): number {
    for (;;) {
      const c = this.at(pos);
      if (c !== 0x20 && c !== 0x0d && c !== 0x0a) return pos;
      pos++;
    }
  }

  /** Position after the UTF-8 character starting at pos (pos itself at the end). */
  charEnd(pos: number): number {
    if (pos >= this.bytes.length) return pos;
    const b = this.bytes[pos];
    const len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    return Math.min(pos + len, this.bytes.length);
  }

  /** Advances over up to n characters without passing `end`; returns [position, characters taken]. */
  takeChars(pos: number, n: number): [number, number] {
    let taken = 0;
    while (taken < n && pos < this.end) {
      pos = this.charEnd(pos);
      taken++;
    }
    return [pos, taken];
  }

  /** The text of bytes [start, end). */
  slice(start: number, end: number): string {
    let ascii = end - start <= 64;
    for (let i = start; ascii && i < end; i++) ascii = this.bytes[i] < 0x80;
    if (ascii) return String.fromCharCode.apply(null, this.bytes.subarray(start, end) as unknown as number[]);
    return decoder.decode(this.bytes.subarray(start, end));
  }

  private charStart(pos: number): number {
    let p = pos - 1;
    while (p > 0 && (this.bytes[p] & 0xc0) === 0x80) p--;
    return p;
  }

  private codePointAt(pos: number): number {
    const b = this.bytes[pos];
    if (b < 0x80) return b;
    const e = this.charEnd(pos);
    let cp = b & (b < 0xe0 ? 0x1f : b < 0xf0 ? 0x0f : 0x07);
    for (let i = pos + 1; i < e; i++) cp = (cp << 6) | (this.bytes[i] & 0x3f);
    return cp;
  }
}
