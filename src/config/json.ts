// JSON text to a value, with a syntax error a person can act on: the engine's own message plus the
// line and column it points at (V8 reports only a character offset, and not always that: then the
// offset is found by parsing beginnings of the text). The text itself is never quoted: the file
// may be anything (`--config /etc/passwd`).

/** Parses JSON; throws an Error whose message says what is wrong and, when known, at line:column. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(describeJsonError(text, err as Error));
  }
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
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${message.replace(/ (in JSON )?at position \d+.*$/, '')}`;
}
