// JSON text to a value, with a syntax error a person can act on: the engine's own message plus the
// line and column it points at (V8 reports only a character offset, and not always that: then the
// offset is found by parsing beginnings of the text). The text itself is never quoted: the file
// may be anything (`--config /etc/passwd`).
//
// Every JSON document edgesim reads (configurations in each format, API request bodies, the API's
// stored state, credentials, ATP options, saved summaries) goes through parseJson, which also
// refuses, at its line and column, what JSON.parse lets through but a reader must not take:
//   - a key given twice in one object: JSON.parse keeps the last, while a locator reading the text
//     points at the first, so a finding would be shown on the copy that is not used;
//   - a key named `__proto__`: JSON.parse makes it an own key, but any later copy made with
//     assignment (`Object.assign`, `obj[key] = value`) makes its value the copy's prototype, whose
//     keys then read as the object's own (`{"__proto__": {"ip": "0.0.0.0/0"}}` read as 0.0.0.0/0).
//     Only a document whose keys are names (credentials: account ids) takes it, kept in a Map there;
//   - nesting deeper than MAX_DEPTH: every reader walks documents recursively, and a hostile file
//     (100,000 nested arrays) would end in a stack overflow. serde_json stops at 128 levels, Go's
//     encoding/json at 10,000; a configuration needs a few dozen (a Terraform plan's modules nest
//     two levels each).

/** JSON's white space: space, tab, line feed, carriage return. */
const JSON_BLANK = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Objects and arrays nested deeper than this are refused. */
export const MAX_DEPTH = 512;

export interface JsonOptions {
  /** the document's object keys are names (account ids): `__proto__` is one like any other */
  keysAreNames?: boolean;
}

/** Parses JSON; throws an Error whose message says what is wrong and, when known, at line:column. */
export function parseJson(text: string, options: JsonOptions = {}): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // a SyntaxError is the text's; anything else (a stack exhausted by nesting) is found by the scan
    throw new SyntaxError((err instanceof SyntaxError ? null : structureProblem(text, options)) ?? describeJsonError(text, err as Error));
  }
  const problem = looksSound(text, value, options) ? null : structureProblem(text, options);
  if (problem !== null) throw new SyntaxError(problem);
  return value;
}

/**
 * The quick proof that the text has none of structureProblem's problems, most documents' case: no
 * `__proto__` key and no nesting past MAX_DEPTH in the value, and as many keys in it as the text has
 * key-like tokens (a closing quote, white space, a colon). Every key is such a token, and a string
 * can hold one too (`\":`), so the text never has fewer tokens than keys: as many as the value has
 * keys means no key is given twice; more sends the text to the exact scan.
 */
function looksSound(text: string, value: unknown, options: JsonOptions): boolean {
  let tokens = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let k = at - 1;
    while (k >= 0 && JSON_BLANK.has(text.charCodeAt(k))) k--;
    if (text.charCodeAt(k) === 0x22) tokens++;
  }
  let keys = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_DEPTH) return false;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      continue;
    }
    if (Object.hasOwn(node, '__proto__') && options.keysAreNames !== true) return false;
    for (const key in node) {
      keys++;
      const item = (node as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
    }
  }
  return keys === tokens;
}

const LINEAR = 16;

/** The keys of one object and where each is: a list while short, then a Map. */
class Keys {
  private names: string[] = [];
  private offsets: number[] = [];
  private map: Map<string, number> | null = null;

  /** Adds `name` at `offset`; the offset of its first copy when it was there already. */
  add(name: string, offset: number): number | undefined {
    if (this.map === null) {
      const at = this.names.indexOf(name);
      if (at >= 0) return this.offsets[at];
      this.names.push(name);
      this.offsets.push(offset);
      if (this.names.length > LINEAR) this.map = new Map(this.names.map((n, k) => [n, this.offsets[k]!]));
      return undefined;
    }
    const first = this.map.get(name);
    if (first === undefined) this.map.set(name, offset);
    return first;
  }
}

/** Line and column (1-based) of a character offset. */
function place(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * The first duplicate key, `__proto__` key or nesting past MAX_DEPTH in JSON text, at its place;
 * null when there is none. One pass over the text: strings are skipped by their closing quote (a
 * quote after an odd run of backslashes is escaped); a key is the string after `{` or `,` in an
 * object, decoded only when it holds an escape.
 */
function structureProblem(text: string, options: JsonOptions): string | null {
  // per open object, its keys and their offsets (a flat list: objects hold a few keys; a Map past LINEAR)
  const frames: Array<Keys | null> = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end < 0) return null;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      const keys = frames[frames.length - 1];
      if (keyNext && keys != null) {
        const raw = text.slice(i + 1, end);
        let key = raw;
        if (raw.includes('\\')) {
          try {
            key = JSON.parse(`"${raw}"`) as string;
          } catch {
            return null;
          }
        }
        if (key === '__proto__' && options.keysAreNames !== true) return `a key named "__proto__" at ${place(text, i)}: not a key of this document (it would be read as the object's prototype)`;
        const first = keys.add(key, i);
        if (first !== undefined) return `duplicate key ${JSON.stringify(key)} at ${place(text, i)} (first at ${place(text, first)}): a key may be given once in an object`;
        keyNext = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (frames.length === MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels at ${place(text, i)}: not a document edgesim reads`;
      frames.push(c === 0x7b ? new Keys() : null);
      keyNext = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      keyNext = false;
    } else if (c === 0x2c) {
      keyNext = frames[frames.length - 1] != null;
    }
  }
  return null;
}

/** Whether the first `length` characters of `text` hold a JSON error before their end (not only the text ending too soon). */
function errsWithin(text: string, length: number): boolean {
  try {
    JSON.parse(text.slice(0, length));
    return false;
  } catch (err) {
    const message = (err as Error).message;
    const at = /at position (\d+)/.exec(message);
    return at === null ? !/^Unexpected end of JSON input/.test(message) : Number(at[1]) < length;
  }
}

/** Where V8's message does not say: the offset of the character that makes the text invalid (found by halving). */
function errorOffset(text: string): number | null {
  if (!errsWithin(text, text.length)) return null;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (errsWithin(text, mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

function describeJsonError(text: string, err: Error): string {
  // V8 quotes the text (or its first bytes) and the token in some messages: never echo a file's content
  const message = err.message.replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '').replace(/^Unexpected token .*$/s, 'Unexpected character');
  const at = /at position (\d+)/.exec(message);
  const offset = at === null ? errorOffset(text) : Number(at[1]);
  if (offset === null) return `invalid JSON: ${message}`;
  return `invalid JSON at ${place(text, offset)}: ${message.replace(/ (in JSON )?at position \d+.*$/, '')}`;
}
