// Text from configurations, captures and suites (rule refs, descriptions, names, case names, file
// names, and the messages that quote them) printed on a terminal or in a CI log. Two readers obey
// what they print:
//   - a terminal obeys control characters: an escape sequence can recolour or clear the screen, move
//     the cursor over earlier output, retitle the window or write to the clipboard, and a newline or a
//     carriage return can forge a line of output (a PASS that never happened);
//   - a CI runner obeys workflow commands: GitHub's runner reads every line of a step's output, both
//     streams, and runs a line that starts with `::` once leading white space is trimmed
//     (`::error::…`, `::add-mask::…`, `::stop-commands::…`), and, in the older form, a line that holds
//     `##[` anywhere (`… ##[add-mask]…`).
// `printable` writes an input's control characters the way JSON writes them (\n, \r, \t, and \u001b
// for ESC, \u009b for its one-byte form, \u202e for a right-to-left override), so a name stays inside
// its line. `LineGuard` is what every line edgesim prints passes through (cli/standard-streams.ts):
// it writes any control character left, a `::` that would start a line and the `[` of `##[` in the
// same escapes, which JSON, YAML's double quotes and JavaScript read back as the same characters.
// The one exception is a workflow command edgesim itself issues (`issuedCommand`, review's
// workflow-commands.ts), whose text is escaped as the runner reads it. Imports nothing.

const SHOWN: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string): string => SHOWN[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with every control character written as an escape, and the `[` of `##[` as `\u005b` (a
 * runner's older command form), safe to print on a terminal and in a CI log inside a line.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escaped).replace(/##\[/g, '##\\u005b');
}

/** JSON text (of JSON.stringify) with the characters JSON leaves raw — DEL, C1 controls, U+2028/9, bidirectional controls — escaped too: the same value. */
export function plainJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether a runner reading `line` would run it as a workflow command: after the white space .NET
 * trims (JavaScript's \s, and U+0085), it starts with `::`; or it holds `##[` anywhere. Lines are
 * what the runner splits on: LF, CR and CRLF (a test splits on every line separator to be safe).
 */
export function isRunnerCommand(line: string): boolean {
  return /^[\s\u0085]*::/.test(line) || line.includes('##[');
}

/** Lines edgesim issued as workflow commands (built escaped, in review/workflow-commands.ts): the guard lets them through. */
const issued = new Set<string>();

/** Marks `line` (one line, no line feed) as a workflow command edgesim issues on purpose; returns it. */
export function issuedCommand(line: string): string {
  issued.add(line);
  return line;
}

const BLANK = /[\s\u0085]/;
const SINGLE_CONTROL = new RegExp(`^${CONTROL.source}$`);
/** anything a guard may have to change in a chunk, whatever came before it */
const RISK = new RegExp(`${CONTROL.source.replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b-\\u001f')}|#\\[|\\n[^\\S\\n]*:`);

/**
 * Passes one stream's text, chunk by chunk as it is written, and keeps every line of it from being
 * read as a command: control characters (all but the line feed) are written as escapes, a `:` that
 * would start a line's `::` as `\u003a`, and the `[` of `##[` as `\u005b`. A line issued by
 * `issuedCommand` passes unchanged. Chunks may split a line anywhere: the guard remembers whether the
 * line so far is blank and how many `#` end it. A lone `:` ending a chunk at a line's start is escaped,
 * since what follows it is not known yet.
 */
export class LineGuard {
  /** the current line holds only white space so far */
  private blank = true;
  /** how many `#` end the current line so far (0, 1 or 2) */
  private hashes = 0;

  pass(text: string): string {
    if (text === '') return text;
    const risky = RISK.test(text)
      || (this.blank && /^[^\S\n]*:/.test(text))
      || (this.hashes > 0 && /^#*\[/.test(text));
    if (!risky) {
      this.follow(text);
      return text;
    }
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\n') {
        out += c;
        this.blank = true;
        this.hashes = 0;
        continue;
      }
      if (this.blank && c === ':') {
        const end = text.indexOf('\n', i);
        const line = text.slice(i, end < 0 ? text.length : end);
        if (out.endsWith('\n') || out === '' ? issued.has(line) : false) {
          out += line;
          i += line.length - 1;
          this.blank = false;
          this.hashes = 0;
          continue;
        }
        const next = text[i + 1];
        out += next === ':' || next === undefined ? '\\u003a' : c;
        this.blank = false;
        this.hashes = 0;
        continue;
      }
      if (SINGLE_CONTROL.test(c)) {
        out += escaped(c);
        this.blank = false;
        this.hashes = 0;
        continue;
      }
      if (this.blank && BLANK.test(c)) {
        out += c;
        continue;
      }
      this.blank = false;
      if (c === '[' && this.hashes >= 2) {
        out += '\\u005b';
        this.hashes = 0;
        continue;
      }
      this.hashes = c === '#' ? Math.min(2, this.hashes + 1) : 0;
      out += c;
    }
    return out;
  }

  /** Follows a chunk that needs no change: the state at its end. */
  private follow(text: string): void {
    const last = text.lastIndexOf('\n');
    const tail = last < 0 ? text : text.slice(last + 1);
    if (last >= 0) {
      this.blank = true;
      this.hashes = 0;
    }
    if (tail === '') return;
    if (!/^[^\S\n]*$/.test(tail)) this.blank = false;
    const trailing = /#*$/.exec(tail)![0].length;
    this.hashes = trailing === tail.length ? Math.min(2, this.hashes + trailing) : Math.min(2, trailing);
  }
}

/**
 * One line of an input echoed in a message, as every reader can take it: control characters (the
 * line feed too) written as escapes, and the `::` or `##[` a runner would run broken as the guard
 * breaks them. The same text when it holds none of these.
 */
export function shownLine(text: string): string {
  return shownParts(text).join('');
}

/** shownLine's text, one part per code point of `text` (for a message that marks a span of the line). */
export function shownParts(text: string): string[] {
  const parts = Array.from(text, (c) => (SINGLE_CONTROL.test(c) ? escaped(c) : c));
  let first = 0;
  while (first < parts.length && BLANK.test(parts[first]!)) first++;
  if (parts[first] === ':' && parts[first + 1] === ':') parts[first] = '\\u003a';
  for (let i = 2; i < parts.length; i++) if (parts[i] === '[' && parts[i - 1] === '#' && parts[i - 2] === '#') parts[i] = '\\u005b';
  return parts;
}
