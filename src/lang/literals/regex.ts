// `matches` / `~` patterns. The engine uses Rust's regex crate on bytes with Unicode off; we run a
// JS RegExp over the value decoded as latin1 (one char per byte), translating the Rust syntax:
// `.` never matches `\n` (also not `\r`, unlike JS), `\s` is ASCII whitespace, `(?P<n>…)` becomes
// `(?<n>…)`, `\A`/`\z`, POSIX classes, leading inline flags `(?ims)`. What Rust rejects (look-around,
// backreferences, `\p` with Unicode off, bad escapes or repetitions) is rejected here as a
// `regex parse error:` too; the wording is ours (exact parity for regex error text is not required).
//
// Lexing (reference/wirefilter.md §1.6): a quoted pattern keeps every `\x` pair for the regex
// engine except `\"` outside a character class, which becomes `"`; a `"` inside `[…]` does not
// end it. A raw string is taken as is. Error spans: the text between the quotes, or — a kept quirk —
// the input after a raw string.
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { lexRawString } from './bytes.js';

const latin1 = new TextDecoder('latin1');

/** Lexes a `matches` pattern at pos; returns [pattern text (latin1, one char per byte), position after]. */
export function lexRegex(s: Source, pos: number): [string, number] {
  const c = s.at(pos);
  if (c === 0x72) {
    const [start, end, , rest] = lexRawString(s, pos + 1);
    const pattern = latin1.decode(s.bytes.subarray(start, end));
    checkRegex(pattern, rest, s.end);
    return [pattern, rest];
  }
  if (c < 0) throw E.eof(pos, s.end);
  if (c !== 0x22) throw E.expected('" or r', pos, s.end);
  const out: number[] = [];
  let inClass = false;
  const contentStart = pos + 1;
  let p = contentStart;
  for (;;) {
    const b = s.at(p);
    if (b < 0) throw E.missingQuote(contentStart, s.end);
    if (b === 0x5c) {
      const next = s.at(p + 1);
      if (next >= 0) {
        if (inClass || next !== 0x22) out.push(0x5c);
        const e = s.charEnd(p + 1);
        for (let i = p + 1; i < e; i++) out.push(s.bytes[i]);
        p = e;
      } else {
        p++;
      }
      continue;
    }
    if (b === 0x22 && !inClass) break;
    if (b === 0x5b && !inClass) inClass = true;
    else if (b === 0x5d && inClass) inClass = false;
    out.push(b);
    p++;
  }
  const pattern = latin1.decode(Uint8Array.from(out));
  checkRegex(pattern, contentStart, p);
  return [pattern, p + 1];
}

function checkRegex(pattern: string, start: number, end: number): void {
  const problem = translateRegex(pattern);
  if (typeof problem === 'string') throw E.regex(problem, start, end);
}

/** A compiled pattern for latin1-decoded values, or the `regex parse error:` text. */
export function translateRegex(pattern: string): RegExp | string {
  try {
    const t = new Translator(pattern);
    return new RegExp(t.run(), t.flags);
  } catch (err) {
    const e = err as { at?: number; message?: string };
    const at = e.at ?? 0;
    return `regex parse error:\n    ${pattern}\n    ${' '.repeat(at)}^\nerror: ${e.message ?? String(err)}`;
  }
}

class RegexSyntaxError extends Error {
  constructor(message: string, readonly at: number) {
    super(message);
  }
}

const ASCII_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};
const PERL_CLASSES: Record<string, string> = { d: '0-9', w: '0-9A-Za-z_', s: '\\t\\n\\v\\f\\r ' };
const SIMPLE_ESCAPES: Record<string, string> = { n: '\\n', t: '\\t', r: '\\r', f: '\\f', v: '\\v', a: '\\x07' };

class Translator {
  flags = '';
  private i = 0;
  private multiLine = false;
  private dotAll = false;
  private depth = 0;

  constructor(private readonly p: string) {}

  run(): string {
    const lead = /^\(\?([imsUux-]*)\)/.exec(this.p);
    if (lead) {
      let on = true;
      for (const f of lead[1]) {
        if (f === '-') on = false;
        else if (f === 'i' && on) this.flags += 'i';
        else if (f === 'm') this.multiLine = on;
        else if (f === 's') this.dotAll = on;
        else if (f === 'u' && on) throw new RegexSyntaxError('Unicode not allowed here', 2);
        else if (f === 'U' || f === 'x') throw new RegexSyntaxError(`flag ${f} is not supported here`, 2);
      }
      this.i = lead[0].length;
    }
    const out = this.alternation();
    if (this.i < this.p.length) throw new RegexSyntaxError('unopened group', this.i);
    return out;
  }

  private alternation(): string {
    let out = '';
    let atomEnd = -1;
    while (this.i < this.p.length) {
      const c = this.p[this.i];
      if (c === ')') {
        if (this.depth === 0) throw new RegexSyntaxError('unopened group', this.i);
        return out;
      }
      if (c === '|') {
        out += '|';
        this.i++;
        atomEnd = -1;
        continue;
      }
      if (c === '*' || c === '+' || c === '?' || c === '{') {
        if (atomEnd < 0) throw new RegexSyntaxError('repetition operator missing expression', this.i);
        out += this.repetition();
        atomEnd = -1;
        continue;
      }
      const atom = this.atom();
      out += atom.text;
      atomEnd = atom.repeatable ? out.length : -1;
    }
    return out;
  }

  private repetition(): string {
    const c = this.p[this.i++];
    let q = c;
    if (c === '{') {
      const m = /^(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i));
      if (!m) throw new RegexSyntaxError('invalid or unclosed counted repetition', this.i - 1);
      if (m[3] && Number(m[3]) < Number(m[1])) throw new RegexSyntaxError('invalid counted repetition range', this.i - 1);
      q = `{${m[0]}`;
      this.i += m[0].length;
    }
    if (this.p[this.i] === '?') {
      q += '?';
      this.i++;
    }
    return q;
  }

  private atom(): { text: string; repeatable: boolean } {
    const c = this.p[this.i];
    if (c === '(') return { text: this.group(), repeatable: true };
    if (c === '[') return { text: this.charClass(), repeatable: true };
    this.i++;
    if (c === '.') return { text: this.dotAll ? '[\\s\\S]' : '[^\\n]', repeatable: true };
    if (c === '^') return { text: this.multiLine ? '(?:^|(?<=\\n))' : '^', repeatable: false };
    if (c === '$') return { text: this.multiLine ? '(?:$|(?=\\n))' : '$', repeatable: false };
    if (c === '\\') return this.escape(false);
    return { text: /[\\^$.|?*+()[\]{}/]/.test(c) ? `\\${c}` : c, repeatable: true };
  }

  private group(): string {
    const start = this.i;
    this.i++;
    let open = '(';
    const rest = this.p.slice(this.i);
    const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      open = `(?<${named[1]}>`;
      this.i += named[0].length;
    } else if (rest.startsWith('?:')) {
      open = '(?:';
      this.i += 2;
    } else if (/^\?<?[=!]/.test(rest)) {
      throw new RegexSyntaxError('look-around, including look-ahead and look-behind, is not supported', start);
    } else if (rest.startsWith('?')) {
      throw new RegexSyntaxError('flags inside the pattern are supported only at its start', start);
    }
    this.depth++;
    const inner = this.alternation();
    this.depth--;
    if (this.p[this.i] !== ')') throw new RegexSyntaxError('unclosed group', start);
    this.i++;
    return `${open}${inner})`;
  }

  private escape(inClass: boolean): { text: string; repeatable: boolean } {
    const at = this.i - 1;
    const c = this.p[this.i++];
    if (c === undefined) throw new RegexSyntaxError('incomplete escape sequence, reached end of pattern prematurely', at);
    if (PERL_CLASSES[c.toLowerCase()] !== undefined) {
      const set = PERL_CLASSES[c.toLowerCase()];
      const negated = c !== c.toLowerCase();
      if (inClass) {
        if (negated) throw new RegexSyntaxError('negated Perl classes inside a class are not supported here', at);
        return { text: set, repeatable: true };
      }
      return { text: `[${negated ? '^' : ''}${set}]`, repeatable: true };
    }
    if (SIMPLE_ESCAPES[c]) return { text: SIMPLE_ESCAPES[c], repeatable: true };
    if (c === 'x') return { text: this.hexEscape(at), repeatable: true };
    if (!inClass && (c === 'b' || c === 'B')) return { text: `\\${c}`, repeatable: false };
    if (!inClass && c === 'A') return { text: '^', repeatable: false };
    if (!inClass && c === 'z') return { text: '$', repeatable: false };
    if (c === 'p' || c === 'P' || c === 'u' || c === 'U') throw new RegexSyntaxError('Unicode not allowed here', at);
    if (/[0-9]/.test(c)) throw new RegexSyntaxError('backreferences are not supported', at);
    if (/[A-Za-z<>]/.test(c)) throw new RegexSyntaxError('unrecognized escape sequence', at);
    if (c.charCodeAt(0) > 0x7f) throw new RegexSyntaxError('unrecognized escape sequence', at);
    return { text: `\\${c}`, repeatable: true };
  }

  private hexEscape(at: number): string {
    const rest = this.p.slice(this.i);
    const m = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest) ?? /^([0-9A-Fa-f]{2})/.exec(rest);
    if (!m) throw new RegexSyntaxError('invalid hexadecimal escape', at);
    this.i += m[0].length;
    const v = parseInt(m[1], 16);
    if (v > 0xff) throw new RegexSyntaxError('Unicode not allowed here', at);
    return `\\x${v.toString(16).padStart(2, '0')}`;
  }

  private charClass(): string {
    const start = this.i;
    this.i++;
    let out = '[';
    if (this.p[this.i] === '^') {
      out += '^';
      this.i++;
    }
    let first = true;
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined) throw new RegexSyntaxError('unclosed character class', start);
      if (c === ']' && !first) break;
      first = false;
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.p.slice(this.i));
        if (!posix || ASCII_CLASSES[posix[2]] === undefined) throw new RegexSyntaxError('nested character classes are not supported here', this.i);
        if (posix[1]) throw new RegexSyntaxError('negated POSIX classes are not supported here', this.i);
        out += ASCII_CLASSES[posix[2]];
        this.i += posix[0].length;
        continue;
      }
      if ((c === '&' || c === '-' || c === '~') && this.p[this.i + 1] === c && c !== '-') {
        throw new RegexSyntaxError('character class set operations are not supported here', this.i);
      }
      this.i++;
      if (c === '\\') out += this.escape(true).text;
      else out += c === ']' || c === '\\' || c === '^' || c === '[' ? `\\${c}` : c;
    }
    this.i++;
    return `${out}]`;
  }
}
