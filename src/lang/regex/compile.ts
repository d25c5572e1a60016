// A `matches` pattern, checked and compiled once: the reference engine's syntax errors and size
// limit become its `regex parse error:` / `Compiled regex exceeds size limit` texts, and a good
// pattern becomes a matcher over bytes that runs in time linear in the value.
//
// Why an automaton of our own rather than a JS RegExp: JavaScript's engine backtracks
// (`(a+)+$` takes seconds on 28 bytes); V8's linear engine (`--enable-experimental-regexp-engine`,
// flag `l`) refuses counted repetitions the reference accepts (`a{1000}`, `(?:a|b){200}`: "Cannot
// be executed in linear time" on Node 20), needs a process-wide V8 flag set before any RegExp in
// every entry point, and still works on UTF-16 text; re2-wasm is a WebAssembly dependency for what
// is about 600 lines here, with RE2 syntax, not Rust's. A Thompson automaton run as a lazy DFA over
// bytes is what the reference engine itself does, so its semantics are the reference's by design.
import { shownLine, shownParts } from '../../terminal-text.js';
import { buildNfa, RegexTooBigError } from './nfa.js';
import { LazyDfa } from './lazy-dfa.js';
import { parseRegex, RegexSyntaxError } from './syntax.js';

export type ByteRegex = LazyDfa;

/** A matcher for a pattern given as latin1 text (one char per byte of its UTF-8 source), or the error text. */
export function compileRegex(pattern: string): ByteRegex | string {
  try {
    return new LazyDfa(buildNfa(parseRegex(pattern)));
  } catch (err) {
    if (err instanceof RegexTooBigError) return err.message;
    if (!(err instanceof RegexSyntaxError)) throw err;
    const text = Buffer.from(pattern, 'latin1').toString('utf8');
    const before = Buffer.from(pattern.slice(0, err.at), 'latin1').toString('utf8');
    // a pattern with control characters (a raw newline) or a runner's `::` is echoed escaped, the caret under the escaped place (lang/errors.ts)
    const plain = text.replace(/\t/g, ' ');
    const asIs = shownLine(plain) === plain;
    const column = asIs ? before.length : shownParts(text).slice(0, Array.from(before).length).join('').length;
    return `regex parse error:\n    ${asIs ? text : shownLine(text)}\n    ${' '.repeat(column)}^\nerror: ${err.message}`;
  }
}
