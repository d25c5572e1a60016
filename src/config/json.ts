// JSON text to a value, with a syntax error a person can act on: the engine's own message plus the
// line and column it points at (V8 reports only a character offset, and not always that).

/** Parses JSON; throws an Error whose message says what is wrong and, when known, at line:column. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(describeJsonError(text, err as Error));
  }
}

function describeJsonError(text: string, err: Error): string {
  const message = err.message.replace(/, "[\s\S]*" is not valid JSON$/, '');
  const at = /at position (\d+)/.exec(message);
  if (!at) return `invalid JSON: ${message}`;
  const offset = Number(at[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
}
