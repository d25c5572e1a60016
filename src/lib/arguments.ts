// The library's arguments, checked where they come in: a value of the wrong kind (a number for an
// expression, null for a Config or for options, an unknown scheme, a capture that is neither a path
// nor bytes) is a UsageError naming the function and the argument — the documented UserError, not a
// TypeError from deep inside, and never silently the default; a packet value that is not a string,
// a finite number, a boolean or null (a BigInt, a Symbol, a function, undefined, NaN) is a
// SuiteError naming its field, as every other wrong packet field is.
import { UsageError } from '../errors.js';
import { SuiteError } from '../suite/source.js';

/** What a value is, in words: `a number`, `null`, `a bigint`. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;
}

function wrong(fn: string, what: string, expected: string, value: unknown): never {
  throw new UsageError(`${fn}: ${what} must be ${expected}, got ${kind(value)}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function stringArgument(fn: string, what: string, value: unknown): string {
  if (typeof value !== 'string') wrong(fn, what, 'a string', value);
  return value;
}

/** Options: an object, or nothing (the defaults). */
export function optionsArgument<T extends object>(fn: string, value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  if (!isObject(value)) wrong(fn, 'the options', 'an object', value);
  return value as Partial<T>;
}

/** One of `choices`, or nothing. */
export function choiceArgument<C extends string>(fn: string, what: string, value: unknown, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${fn}: ${what} must be ${choices.map((c) => JSON.stringify(c)).join(' or ')}, got ${typeof value === 'string' ? JSON.stringify(value) : kind(value)}`);
  }
  return value as C;
}

/** A Config, as loadConfig returns it. */
export function configArgument(fn: string, what: string, value: unknown): void {
  if (!isObject(value) || !isObject(value.snapshot)) wrong(fn, what, 'a Config (what loadConfig returns)', value);
}

/** A capture: a path, bytes, or an async iterable of byte chunks; or several paths, replayed merged by time. */
export function captureArgument(fn: string, value: unknown): void {
  const paths = Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
  const ok = paths || typeof value === 'string' || value instanceof Uint8Array || (isObject(value) && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function');
  if (!ok) wrong(fn, 'the capture', 'a path, several paths, a Uint8Array or an async iterable of Uint8Array chunks', value);
}

/** A packet's values are a suite's: strings, finite numbers, booleans, null. */
export function packetValues(packet: unknown): void {
  if (!isObject(packet)) return; // the suites' rules say what a packet is
  for (const [field, value] of Object.entries(packet)) {
    const ok = typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value));
    if (!ok) throw new SuiteError('packet', 1, field, `${kind(value)} is not a field value (a string, a number or a boolean)`);
  }
  for (const symbol of Object.getOwnPropertySymbols(packet)) throw new SuiteError('packet', 1, String(symbol), 'a symbol is not a field name');
}
