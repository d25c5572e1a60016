// Text from configurations, captures and suites (rule refs, descriptions, names, case names, and the
// messages that quote them) printed on a terminal. A terminal obeys the control characters in what
// it prints: an escape sequence can recolour or clear the screen, move the cursor over earlier
// output, retitle the window or write to the clipboard, and a newline can forge a line of output
// (a PASS that never happened). Every text output shows them instead, written the way JSON writes
// them (\n, \r, \t, and \u001b for ESC, \u009b for its one-byte form, \u202e for a right-to-left
// override); JSON and NDJSON outputs keep the raw value and escape it by JSON's own rules.
// Imports nothing.

const SHOWN: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character written as an escape, safe to print on a terminal. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => SHOWN[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
