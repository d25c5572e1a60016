// `matches` runs in time linear in the value whatever the pattern (issue 9, must-fix 1). Patterns
// that make a backtracking engine take exponential or high-polynomial time run here over 100,000
// bytes in a child process with a generous time limit: a backtracking matcher never finishes (the
// child is killed and the test fails), a linear one finishes in milliseconds, so the limit is not a
// timing assertion. The child uses the built library (dist/, built by the global setup), through
// the same compile() path a replay uses.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LIBRARY = fileURLToPath(new URL('../../../dist/lang/index.js', import.meta.url));

/** [pattern (raw string content), value (latin1), expected] */
const PATHOLOGICAL: [string, string, boolean][] = [
  ['(a+)+$', `${'a'.repeat(100_000)}!`, false],
  ['(a|a)*b', 'a'.repeat(100_000), false],
  ['(a*)*b', 'a'.repeat(100_000), false],
  ['^(a|aa)+$', `${'a'.repeat(100_000)}b`, false],
  ['(x+x+)+y', 'x'.repeat(100_000), false],
  ['(.*a){12}', 'a'.repeat(11) + 'b'.repeat(100_000), false],
  ['(a+)+$', `${'a'.repeat(100_000)}`, true],
  ['(\\w+\\s?)+z$', `${'ab '.repeat(30_000)}!`, false],
];

const CHILD = `
import { compile, FIREWALL_SCHEME, parse } from ${JSON.stringify(LIBRARY)};
import { readFileSync } from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
let value = new Uint8Array(0);
const binding = { udp: { type: 'Bytes', has: () => true, bytes: () => value, start: () => 0, end: () => value.length } };
const results = cases.map(([pattern, text]) => {
  value = Uint8Array.from(Buffer.from(text, 'latin1'));
  return compile(parse('udp matches r#"' + pattern + '"#', FIREWALL_SCHEME), binding)(null);
});
process.stdout.write(JSON.stringify(results));
`;

describe('matches runs in linear time', () => {
  it('pathological patterns over 100,000 bytes finish, with the right answers', () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
      input: JSON.stringify(PATHOLOGICAL),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.error).toBeUndefined();
    expect(child.signal, 'the matcher did not finish in 30 s').toBeNull();
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual(PATHOLOGICAL.map(([, , expected]) => expected));
  });
});
