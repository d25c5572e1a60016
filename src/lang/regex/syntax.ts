// Parses a `matches` pattern in the reference engine's syntax (Rust's regex crate, bytes API,
// Unicode off) into a tree whose leaves are byte sets. Every piece of the syntax that the matcher
// needs is resolved here, so the automaton only sees bytes, sequences, alternations, repetitions
// and zero-width assertions:
// - a literal is the set of its byte (both ASCII cases under `i`); `.` is every byte but `\n`
//   (every byte under `s`); `\d \w \s` and `[[:name:]]` are their ASCII sets; classes nest and
//   combine with `&&` `--` `~~`;
// - a non-ASCII character (the pattern is UTF-8 text) matches its bytes in sequence, but is
//   "Unicode not allowed here" inside a class, as is `\x{…}` above 0xFF, `\p`, `\u`, and `(?u)`;
// - flags `i m s U` apply from where they are set to the end of their group; `U` (laziness) does
//   not change whether a value matches, so it is accepted and ignored. `x` and `R` are refused;
// - look-around and backreferences do not exist in the reference engine and are errors with its text.
// Error texts are regex-syntax's; the position is the offset the caret points at.

export type ByteSet = Uint8Array;

export const enum Look {
  StartText,
  EndText,
  StartLine,
  EndLine,
  WordBoundary,
  NotWordBoundary,
  WordStart,
  WordEnd,
}

export type RegexNode =
  | { kind: 'bytes'; set: ByteSet }
  | { kind: 'concat'; items: RegexNode[] }
  | { kind: 'alternate'; items: RegexNode[] }
  | { kind: 'repeat'; item: RegexNode; min: number; max: number; depth: number }
  | { kind: 'look'; look: Look }
  | { kind: 'empty' };

export class RegexSyntaxError extends Error {
  constructor(message: string, readonly at: number) {
    super(message);
  }
}

/** regex-syntax's default nesting limit for groups, classes and repetitions */
const NEST_LIMIT = 250;

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

function setOf(pred: (b: number) => boolean): ByteSet {
  const s = new Uint8Array(256);
  for (let b = 0; b < 256; b++) if (pred(b)) s[b] = 1;
  return s;
}
const range = (lo: number, hi: number) => (b: number) => b >= lo && b <= hi;
const anyOf = (...ps: ((b: number) => boolean)[]) => (b: number) => ps.some((p) => p(b));
const chars = (text: string) => (b: number) => text.includes(String.fromCharCode(b));

const DIGIT = range(0x30, 0x39);
const UPPER = range(0x41, 0x5a);
const LOWER = range(0x61, 0x7a);
const ALPHA = anyOf(UPPER, LOWER);
const WORD = anyOf(DIGIT, ALPHA, chars('_'));
const SPACE = chars('\t\n\v\f\r ');
export const WORD_BYTES = setOf(WORD);

const PERL_CLASSES: Record<string, (b: number) => boolean> = { d: DIGIT, w: WORD, s: SPACE };
const ASCII_CLASSES: Record<string, (b: number) => boolean> = {
  alnum: anyOf(DIGIT, ALPHA), alpha: ALPHA, ascii: range(0, 0x7f), blank: chars('\t '),
  cntrl: anyOf(range(0, 0x1f), chars('\x7f')), digit: DIGIT, graph: range(0x21, 0x7e), lower: LOWER,
  print: range(0x20, 0x7e), punct: anyOf(range(0x21, 0x2f), range(0x3a, 0x40), range(0x5b, 0x60), range(0x7b, 0x7e)),
  space: SPACE, upper: UPPER, word: WORD, xdigit: anyOf(DIGIT, range(0x41, 0x46), range(0x61, 0x66)),
};
const SPECIAL_ESCAPES: Record<string, number> = { a: 0x07, f: 0x0c, t: 0x09, n: 0x0a, r: 0x0d, v: 0x0b };
const META = '\\.+*?()|[]{}^$#&-~';

/** Parses a pattern given as latin1 text (one char per byte of the UTF-8 source). */
export function parseRegex(pattern: string): RegexNode {
  return new RegexParser(pattern).run();
}

type ConcatItem = RegexNode | 'flags';

class RegexParser {
  private i = 0;
  private depth = 0;
  private flags: Flags = { i: false, m: false, s: false };
  private readonly groupNames = new Set<string>();

  constructor(private readonly p: string) {}

  run(): RegexNode {
    const node = this.alternation();
    if (this.i < this.p.length) throw new RegexSyntaxError('unopened group', this.i);
    return node;
  }

  private code(at = this.i): number {
    return at < this.p.length ? this.p.charCodeAt(at) : -1;
  }

  private nest(at: number): void {
    if (++this.depth > NEST_LIMIT) throw new RegexSyntaxError(`exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`, at);
  }

  /** Alternatives up to an unmatched `)` or the end; flags set inside end with the group. */
  private alternation(): RegexNode {
    const outer = { ...this.flags };
    const alternatives: RegexNode[] = [];
    let concat: ConcatItem[] = [];
    const close = () => alternatives.push(concatNode(concat.filter((x): x is RegexNode => x !== 'flags')));
    while (this.i < this.p.length) {
      const c = this.p[this.i];
      if (c === ')') break;
      if (c === '|') {
        close();
        concat = [];
        this.i++;
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        this.repetition(concat);
      } else if (c === '(') {
        const item = this.group();
        concat.push(item);
      } else if (c === '[') {
        concat.push({ kind: 'bytes', set: this.charClass() });
      } else {
        concat.push(...this.primitive());
      }
    }
    close();
    this.flags = outer;
    return alternatives.length === 1 ? alternatives[0] : { kind: 'alternate', items: alternatives };
  }

  private repetition(concat: ConcatItem[]): void {
    const at = this.i;
    const c = this.p[this.i++];
    const last = concat.pop();
    if (last === undefined || last === 'flags') throw new RegexSyntaxError('repetition operator missing expression', at);
    let min = 0;
    let max = Infinity;
    if (c === '+') min = 1;
    else if (c === '?') max = 1;
    else if (c === '{') [min, max] = this.counts(at);
    if (this.p[this.i] === '?') this.i++;
    const depth = (last.kind === 'repeat' ? last.depth : this.depth) + 1;
    if (depth > NEST_LIMIT) throw new RegexSyntaxError(`exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`, at);
    concat.push({ kind: 'repeat', item: last, min, max, depth });
  }

  private counts(open: number): [number, number] {
    const min = this.decimal(open);
    let max = min;
    if (this.p[this.i] === ',') {
      this.i++;
      max = this.p[this.i] === '}' ? Infinity : this.decimal(open);
    }
    if (this.p[this.i] !== '}') throw new RegexSyntaxError('unclosed counted repetition', open);
    this.i++;
    if (max < min) throw new RegexSyntaxError('invalid repetition count range, the start must be <= the end', open);
    return [min, max];
  }

  private decimal(open: number): number {
    const start = this.i;
    while (DIGIT(this.code())) this.i++;
    if (this.i === start) {
      if (this.i >= this.p.length) throw new RegexSyntaxError('unclosed counted repetition', open);
      throw new RegexSyntaxError('repetition quantifier expects a valid decimal', this.i);
    }
    const n = Number(this.p.slice(start, this.i));
    if (n > 0xffffffff) throw new RegexSyntaxError('decimal literal invalid', start);
    return n;
  }

  /** `(…)`, `(?:…)`, `(?P<name>…)`, `(?<name>…)`, `(?flags)`, `(?flags:…)`. */
  private group(): ConcatItem {
    const start = this.i;
    this.nest(start);
    this.i++;
    const rest = this.p.slice(this.i, this.i + 4);
    if (/^\?<?[=!]/.test(rest)) throw new RegexSyntaxError('look-around, including look-ahead and look-behind, is not supported', start);
    const outer = { ...this.flags };
    if (this.p[this.i] === '?') {
      this.i++;
      if (this.p.startsWith('P<', this.i) || (this.p[this.i] === '<')) this.groupName();
      else if (this.setFlags()) {
        this.depth--;
        return 'flags';
      }
    }
    const inner = this.alternation();
    this.flags = outer;
    if (this.p[this.i] !== ')') throw new RegexSyntaxError('unclosed group', start);
    this.i++;
    this.depth--;
    return inner;
  }

  private groupName(): void {
    this.i += this.p[this.i] === 'P' ? 2 : 1;
    const start = this.i;
    while (this.i < this.p.length && this.p[this.i] !== '>') {
      const c = this.p[this.i];
      const ok = /[A-Za-z_]/.test(c) || (this.i > start && /[0-9.[\]]/.test(c));
      if (!ok) throw new RegexSyntaxError('invalid capture group character', this.i);
      this.i++;
    }
    if (this.i >= this.p.length) throw new RegexSyntaxError('unclosed capture group name', start);
    if (this.i === start) throw new RegexSyntaxError('empty capture group name', start);
    const name = this.p.slice(start, this.i);
    if (this.groupNames.has(name)) throw new RegexSyntaxError('duplicate capture group name', start);
    this.groupNames.add(name);
    this.i++;
  }

  /** Reads flags after `(?`; true for `(?flags)` (sets them for the rest of the group), false for `(?flags:`. */
  private setFlags(): boolean {
    const flags = { ...this.flags };
    let on = true;
    let negation = -1;
    const seen = new Set<string>();
    for (;;) {
      const at = this.i;
      const c = this.p[this.i++];
      if (c === undefined) throw new RegexSyntaxError('expected flag but got end of regex', at);
      if (c === ')' || c === ':') {
        if (negation === at - 1) throw new RegexSyntaxError('dangling flag negation operator', negation);
        if (c === ')') {
          this.flags = flags;
          return true;
        }
        this.flags = flags;
        return false;
      }
      if (c === '-') {
        if (!on) throw new RegexSyntaxError('flag negation operator repeated', at);
        on = false;
        negation = at;
        continue;
      }
      if (seen.has(c)) throw new RegexSyntaxError('duplicate flag', at);
      seen.add(c);
      if (c === 'i' || c === 'm' || c === 's') flags[c] = on;
      else if (c === 'u') throw new RegexSyntaxError('Unicode not allowed here', at);
      else if (c === 'x' || c === 'R') throw new RegexSyntaxError(`flag ${c} is not supported here`, at);
      else if (c !== 'U') throw new RegexSyntaxError('unrecognized flag', at);
    }
  }

  /** One literal, `.`, anchor or escape; a non-ASCII character gives its bytes in sequence. */
  private primitive(): RegexNode[] {
    const c = this.p[this.i];
    if (c === '\\') return [this.escape()];
    this.i++;
    if (c === '.') return [{ kind: 'bytes', set: this.flags.s ? setOf(() => true) : setOf((b) => b !== 0x0a) }];
    if (c === '^') return [{ kind: 'look', look: this.flags.m ? Look.StartLine : Look.StartText }];
    if (c === '$') return [{ kind: 'look', look: this.flags.m ? Look.EndLine : Look.EndText }];
    const b = c.charCodeAt(0);
    if (b < 0x80) return [this.literal(b)];
    const out: RegexNode[] = [this.literal(b)];
    while (this.code() >= 0x80 && this.code() < 0xc0) out.push(this.literal(this.p.charCodeAt(this.i++)));
    return out;
  }

  private literal(b: number): RegexNode {
    return { kind: 'bytes', set: this.fold(setOf((x) => x === b)) };
  }

  /** ASCII case folding under `i` (Unicode off: no other folding). */
  private fold(set: ByteSet): ByteSet {
    if (!this.flags.i) return set;
    for (let b = 0x41; b <= 0x5a; b++) {
      if (set[b] || set[b + 0x20]) set[b] = set[b + 0x20] = 1;
    }
    return set;
  }

  private escape(): RegexNode {
    const at = this.i;
    this.i++;
    const c = this.p[this.i];
    if (c === undefined) throw new RegexSyntaxError('incomplete escape sequence, reached end of pattern prematurely', at);
    const looks: Record<string, Look> = { A: Look.StartText, z: Look.EndText, b: Look.WordBoundary, B: Look.NotWordBoundary, '<': Look.WordStart, '>': Look.WordEnd };
    if (looks[c] !== undefined) {
      this.i++;
      return { kind: 'look', look: looks[c] };
    }
    return { kind: 'bytes', set: this.fold(this.escapedSet(at)) };
  }

  /** The byte set of an escape at `at` (the backslash), in or out of a class. */
  private escapedSet(at: number): ByteSet {
    const c = this.p[at + 1];
    this.i = at + 2;
    const perl = PERL_CLASSES[c.toLowerCase()];
    if (perl) return c === c.toLowerCase() ? setOf(perl) : setOf((b) => !perl(b));
    if (SPECIAL_ESCAPES[c] !== undefined) return setOf((b) => b === SPECIAL_ESCAPES[c]);
    if (c === 'x') {
      const v = this.hex(at);
      return setOf((b) => b === v);
    }
    if (c === 'p' || c === 'P' || c === 'u' || c === 'U') throw new RegexSyntaxError('Unicode not allowed here', at);
    if (DIGIT(c.charCodeAt(0))) throw new RegexSyntaxError('backreferences are not supported', at);
    if (META.includes(c) || (c.charCodeAt(0) < 0x80 && /[^\sA-Za-z0-9<>]/.test(c))) {
      const b = c.charCodeAt(0);
      return setOf((x) => x === b);
    }
    throw new RegexSyntaxError('unrecognized escape sequence', at);
  }

  private hex(at: number): number {
    if (this.p[this.i] === '{') {
      const end = this.p.indexOf('}', this.i);
      if (end < 0) throw new RegexSyntaxError('unclosed hexadecimal literal', at);
      const digits = this.p.slice(this.i + 1, end);
      if (digits === '') throw new RegexSyntaxError('hexadecimal literal empty', at);
      if (!/^[0-9A-Fa-f]+$/.test(digits)) throw new RegexSyntaxError('invalid hexadecimal digit', at);
      this.i = end + 1;
      const v = parseInt(digits, 16);
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) throw new RegexSyntaxError('hexadecimal literal is not a Unicode scalar value', at);
      if (v > 0xff) throw new RegexSyntaxError('Unicode not allowed here', at);
      return v;
    }
    const digits = this.p.slice(this.i, this.i + 2);
    if (digits.length < 2) throw new RegexSyntaxError('incomplete escape sequence, reached end of pattern prematurely', at);
    if (!/^[0-9A-Fa-f]{2}$/.test(digits)) throw new RegexSyntaxError('invalid hexadecimal digit', at);
    this.i += 2;
    return parseInt(digits, 16);
  }

  /** `[…]` at this.i: items, ranges, nested classes, POSIX classes, `&&` `--` `~~`. */
  private charClass(): ByteSet {
    const start = this.i;
    this.nest(start);
    this.i++;
    const negated = this.p[this.i] === '^';
    if (negated) this.i++;
    let set = this.classUnion(true, start);
    for (;;) {
      if (this.i >= this.p.length) throw new RegexSyntaxError('unclosed character class', start);
      const op = this.p.slice(this.i, this.i + 2);
      if (op === '&&' || op === '--' || op === '~~') {
        this.i += 2;
        const rhs = this.classUnion(false, start);
        set = setOf((b) => (op === '&&' ? set[b] && rhs[b] : op === '--' ? set[b] && !rhs[b] : set[b] !== rhs[b]) as boolean);
        continue;
      }
      if (this.p[this.i] === ']') break;
    }
    this.i++;
    this.depth--;
    set = this.fold(set);
    return negated ? setOf((b) => !set[b]) : set;
  }

  /** Class items up to `]` or a set operator; a leading `]` (or `-`) is literal. */
  private classUnion(first: boolean, start: number): ByteSet {
    const set = new Uint8Array(256);
    let leading = first;
    for (;;) {
      if (this.i >= this.p.length) throw new RegexSyntaxError('unclosed character class', start);
      const c = this.p[this.i];
      const two = this.p.slice(this.i, this.i + 2);
      if (!leading && (c === ']' || two === '&&' || two === '~~' || (two === '--' && this.p[this.i + 2] !== ']'))) return set;
      leading = false;
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.p.slice(this.i));
        const named = posix && ASCII_CLASSES[posix[2]];
        if (posix && named) {
          this.i += posix[0].length;
          const neg = posix[1] === '^';
          for (let b = 0; b < 256; b++) if (named(b) !== neg) set[b] = 1;
        } else {
          const inner = this.charClass();
          for (let b = 0; b < 256; b++) if (inner[b]) set[b] = 1;
        }
        continue;
      }
      const lo = this.classAtom();
      if (typeof lo === 'number' && this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.i + 1 < this.p.length) {
        const dash = this.i;
        this.i++;
        const hi = this.classAtom();
        if (typeof hi !== 'number') throw new RegexSyntaxError('invalid range boundary, must be a literal', dash + 1);
        if (hi < lo) throw new RegexSyntaxError('invalid character class range, the start must be <= the end', dash - 1);
        for (let b = lo; b <= hi; b++) set[b] = 1;
      } else if (typeof lo === 'number') {
        set[lo] = 1;
      } else {
        for (let b = 0; b < 256; b++) if (lo[b]) set[b] = 1;
      }
    }
  }

  /** One class item: a byte, or a set for `\d`-like escapes. */
  private classAtom(): number | ByteSet {
    const at = this.i;
    const c = this.code();
    if (c === 0x5c) {
      const e = this.p[at + 1];
      if (e === undefined) throw new RegexSyntaxError('incomplete escape sequence, reached end of pattern prematurely', at);
      if (/[AzbB<>]/.test(e)) throw new RegexSyntaxError('invalid escape sequence found in character class', at);
      const set = this.escapedSet(at);
      let count = 0;
      let only = -1;
      for (let b = 0; b < 256; b++) if (set[b]) (count++, (only = b));
      return count === 1 && !PERL_CLASSES[e.toLowerCase()] ? only : set;
    }
    if (c >= 0x80) throw new RegexSyntaxError('Unicode not allowed here', at);
    this.i++;
    return c;
  }
}

function concatNode(items: RegexNode[]): RegexNode {
  if (items.length === 0) return { kind: 'empty' };
  return items.length === 1 ? items[0] : { kind: 'concat', items };
}
