// A value written as a quoted HCL string's content, independently of the reader under test: escapes for
// `\`, `"` and control characters, and `${`/`%{` doubled (strings.test.ts and the language server's
// hcl-host.test.ts write their strings with it).

/** `value` as a quoted HCL string's content. */
export function quoted(value: string): string {
  return value.replace(/[\\"\u0000-\u001f]|[$%](?=\{)/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '$' || c === '%') return `${c}${c}`;
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
