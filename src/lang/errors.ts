// Every parse error goes through this file. Lexers and the parser throw a LexError (a kind, a
// stable code and a byte span, nothing else); parse() catches it once and turns it into the public
// FilterError whose message is the engine's three-line text, computing line and column only then.
// The reason texts are the reference engine's Display strings, byte for byte (reference/wirefilter.md
// §3.1), so callers and the mock API can show them unchanged. The one departure: a line the message
// echoes that holds control characters, or that a CI runner would run as a workflow command
// (`::error::…`), is echoed escaped (terminal-text.ts shownLine) with the carets moved under the
// escaped span; any other line is echoed as the engine echoes it.
import { shownLine, shownParts } from '../terminal-text.js';
import type { Source } from './source.js';

/** Internal: thrown by lexers and the parser; carries the engine's reason and a byte span. */
export class LexError {
  constructor(readonly code: string, readonly reason: string, readonly start: number, readonly end: number) {}
}

/**
 * An invalid expression. `message` is the engine's full text (`Filter parsing error (L:C):`, the
 * line, carets under the span, the reason, a trailing newline), or a plain line for limits.
 */
export class FilterError extends Error {
  /** stable machine-readable kind, e.g. 'unknown_identifier', 'parse_network', 'too_long' */
  readonly code: string;
  /** the engine's reason text, e.g. "unknown identifier" */
  readonly reason: string;
  /** byte offsets of the failing span in the original (untrimmed) input */
  readonly start: number;
  readonly end: number;

  constructor(code: string, reason: string, start: number, end: number, message: string) {
    super(message);
    this.name = 'FilterError';
    this.code = code;
    this.reason = reason;
    this.start = start;
    this.end = end;
  }
}

/** The engine's names for `expected {name}` errors, with our stable codes. */
const EXPECTED_NAMES = {
  'identifier character': 'expected_identifier',
  digit: 'expected_digit',
  'IP address character': 'expected_ip_character',
  'byte separator': 'expected_byte_separator',
  '" or r': 'expected_string',
  '" or #': 'expected_raw_string',
  ComparisonOp: 'expected_comparison_op',
} as const;
export type ExpectedName = keyof typeof EXPECTED_NAMES;

/** Rust's `{:?}` for a str: quotes and escape_debug (what the engine prints for literals and names). */
export function rustDebugStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp === 0) out += '\\0';
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += `\\u{${cp.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Constructors for every error kind (a table, so each reason text is written once). */
export const E = {
  expected: (name: ExpectedName, start: number, end: number) =>
    new LexError(EXPECTED_NAMES[name], `expected ${name}`, start, end),
  literal: (lit: string, start: number, end: number) =>
    new LexError('expected_literal', `expected literal ${rustDebugStr(lit)}`, start, end),
  parseInt: (err: string, radix: number, start: number, end: number) =>
    new LexError('parse_int', `${err} while parsing with radix ${radix}`, start, end),
  network: (detail: string, start: number, end: number) => new LexError('parse_network', detail, start, end),
  regex: (detail: string, start: number, end: number) => new LexError('parse_regex', detail, start, end),
  wildcard: (detail: string, start: number, end: number) => new LexError('parse_wildcard', detail, start, end),
  escape: (start: number, end: number) =>
    new LexError('invalid_escape', 'expected ", xHH or OOO after \\', start, end),
  hashCount: (start: number, end: number) =>
    new LexError('invalid_raw_string_hash_count', "invalid raw string hash count, there can't be more than 255 #s", start, end),
  missingQuote: (start: number, end: number) => new LexError('missing_ending_quote', 'could not find an ending quote', start, end),
  count: (expected: number, actual: number, start: number, end: number) =>
    new LexError('count_mismatch', `expected ${expected} characters, but found ${actual}`, start, end),
  unknownIdentifier: (start: number, end: number) => new LexError('unknown_identifier', 'unknown identifier', start, end),
  unsupportedOp: (typeDebug: string, start: number, end: number) =>
    new LexError('unsupported_op', `cannot perform this operation on type ${typeDebug}`, start, end),
  rangeBounds: (start: number, end: number) => new LexError('incompatible_range_bounds', 'incompatible range bounds', start, end),
  eof: (start: number, end: number) => new LexError('unrecognised_input', 'unrecognised input', start, end),
  argCount: (start: number, end: number) => new LexError('invalid_arguments_count', 'invalid number of arguments', start, end),
  argKind: (index: number, expected: string, actual: string, start: number, end: number) =>
    new LexError('invalid_argument_kind', `invalid kind of argument #${index}: expected argument of kind ${expected}, but got ${actual}`, start, end),
  argType: (index: number, expected: string, actual: string, start: number, end: number) =>
    new LexError('invalid_argument_type', `invalid type of argument #${index}: expected value of type ${expected}, but got ${actual}`, start, end),
  argValue: (index: number, detail: string, start: number, end: number) =>
    new LexError('invalid_argument_value', `invalid value of argument #${index}: invalid argument: ${rustDebugStr(detail)}`, start, end),
  indexAccess: (indexDebug: string, typeDebug: string, start: number, end: number) =>
    new LexError('invalid_index_access', `cannot access index ${indexDebug} for type ${typeDebug}`, start, end),
  typeMismatch: (expected: string, actual: string, start: number, end: number) =>
    new LexError('type_mismatch', `expected value of type ${expected}, but got ${actual}`, start, end),
  mapEach: (start: number, end: number) => new LexError('invalid_map_each_access', 'invalid use of map each access operator', start, end),
  listName: (name: string, start: number, end: number) =>
    new LexError('invalid_list_name', `invalid list name ${rustDebugStr(name)}`, start, end),
  nesting: (limit: number, start: number, end: number) =>
    new LexError('nesting_limit', `maximum nesting depth exceeded (limit: ${limit})`, start, end),
};

/** The engine's three-line message for a span of the original input. */
export function engineMessage(src: Source, reason: string, start: number, end: number): string {
  const bytes = src.bytes;
  let lineStart = start;
  while (lineStart > 0 && bytes[lineStart - 1] !== 0x0a) lineStart--;
  let lineNumber = 0;
  for (let i = 0; i < start; i++) if (bytes[i] === 0x0a) lineNumber++;
  let lineEnd = start;
  while (lineEnd < bytes.length && bytes[lineEnd] !== 0x0a) lineEnd++;
  const column = start - lineStart;
  let spanLen = end - start;
  if (lineEnd < bytes.length) spanLen = Math.min(spanLen, lineEnd - lineStart - column);
  const line = src.slice(lineStart, lineEnd);
  const header = `Filter parsing error (${lineNumber + 1}:${column + 1}):\n`;
  const mark = echoed(line, src.slice(lineStart, start), src.slice(lineStart, start + Math.max(0, spanLen)));
  if (mark === null) return `${header}${line}\n${' '.repeat(column)}${'^'.repeat(Math.max(1, spanLen))} ${reason}\n`;
  return `${header}${mark.line}\n${' '.repeat(mark.column)}${'^'.repeat(Math.max(1, mark.carets))} ${reason}\n`;
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * A line to echo with a span marked in it, when the line cannot be echoed as it is (see the file's
 * header): the escaped line, and the span's column and length in it, in bytes as the engine counts
 * them; null when the line can be echoed as it is. A tab, and a CR ending the line (CRLF input), stay as
 * the engine leaves them: a terminal and a runner take them as white space (the CLI's guard shows them escaped).
 */
export function echoed(line: string, beforeSpan: string, throughSpan: string): { line: string; column: number; carets: number } | null {
  const body = (line.endsWith('\r') ? line.slice(0, -1) : line).replace(/\t/g, ' ');
  if (shownLine(body) === body) return null;
  const parts = shownParts(line);
  const upTo = (text: string): number => bytes(parts.slice(0, Array.from(text).length).join(''));
  const column = upTo(beforeSpan);
  return { line: parts.join(''), column, carets: upTo(throughSpan) - column };
}

/** The public error for a LexError raised while parsing `src`. */
export function toFilterError(src: Source, e: LexError): FilterError {
  return new FilterError(e.code, e.reason, e.start, e.end, engineMessage(src, e.reason, e.start, e.end));
}

/** A limit error (length, complexity): a plain one-line message, no span display. */
export function limitError(code: string, message: string, start: number, end: number): FilterError {
  return new FilterError(code, message, start, end, message);
}

/**
 * The older documented validate-expr shape (reference/cloudflare.md §3): the expression in
 * backticks, then carets under the span indented by its byte offset + 2, then the reason.
 * Limit errors (no span display) come back as their plain message.
 */
export function legacyMessage(expr: string, err: FilterError): string {
  if (err.message === err.reason) return err.message;
  const len = Math.max(1, err.end - err.start);
  const utf8 = Buffer.from(expr, 'utf8');
  const mark = echoed(`\`${expr}\``, `\`${utf8.subarray(0, err.start).toString('utf8')}`, `\`${utf8.subarray(0, err.end).toString('utf8')}`);
  if (mark !== null) return `Filter parsing error:\n${mark.line}\n${' '.repeat(mark.column + 1)}${'^'.repeat(Math.max(1, mark.carets))} ${legacyReason(err.reason)}\n`;
  return `Filter parsing error:\n\`${expr}\`\n${' '.repeat(err.start + 2)}${'^'.repeat(len)} ${legacyReason(err.reason)}\n`;
}

// The older engine reported a bad CIDR length as the bare integer error (the documented
// `/2000` example says "number too large to fit in target type while parsing with radix 10").
const LENGTH_PREFIX = "couldn't parse length in network: ";
function legacyReason(reason: string): string {
  return reason.startsWith(LENGTH_PREFIX) ? `${reason.slice(LENGTH_PREFIX.length)} while parsing with radix 10` : reason;
}
