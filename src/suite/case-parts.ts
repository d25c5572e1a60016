// A suite of many cases is read a case at a time: the YAML library's document for a whole 18 MB
// suite took 1.3 GB, while each case's own text parses into a document of its own that is dropped
// once the case is checked. This applies to the usual shape of a suite: a top-level `cases:` line
// followed by a block list (`- name: ...`), and no anchor anywhere (an alias may name an anchor of
// another case, which needs the whole document). Any other suite is read whole.
// A case's long `packets:` block list is read the same way, LIST_PART packets at a time (one case of
// 1M packets, 41 MB of text, made a 3.7 GB document); the case itself is read with the list empty.

/** Where a case's text is: [start, end) offsets into the suite, and the line it starts on. */
export interface CasePart {
  start: number;
  end: number;
  line: number;
}

export interface CaseParts {
  /** the suite without its cases: `cases:` is left empty, and the lines after the list keep their numbers */
  head: string;
  parts: CasePart[];
}

/** A case whose `packets:` list is read in parts. */
export interface PacketParts {
  /** the case with `packets: []` on one line, the lines after the list following it */
  head: string;
  /** the lines of head after line `after` (the `[]`'s) are `lines` further down in the case */
  gap: { after: number; lines: number };
  /** runs of at most LIST_PART packets, each [start, end) in the case's text, with the line it starts on in the case */
  parts: CasePart[];
}

/** packets a part of a long `packets:` list holds; a shorter list is read with its case */
export const LIST_PART = 1000;

const CASES_LINE = /^cases:[ \t]*(#.*)?$/;

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/**
 * The items of the block list that starts at offset `at` (line `line`), in runs of `per` items (one
 * object a run, not an item: a list of 1M packets made 1M), how many items there are, and where the
 * list ends (-1: at the text's end); null when no block list starts there.
 */
function blockList(text: string, at: number, line: number, per = 1): { items: CasePart[]; count: number; end: number; endLine: number } | null {
  let indent = -1;
  let count = 0;
  const items: CasePart[] = [];
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    const content = text.slice(at, nl === -1 ? text.length : nl).replace(/\r$/, '');
    if (content.startsWith('\t')) return null;
    if (content.trim() !== '' && !content.trimStart().startsWith('#')) {
      const n = indentOf(content);
      const item = content.startsWith('-', n) && (content.length === n + 1 || content[n + 1] === ' ');
      if (indent === -1) {
        if (!item) return null;
        indent = n;
      }
      if (n === indent && item) {
        if (count++ % per === 0) {
          if (items.length > 0) items[items.length - 1]!.end = at;
          items.push({ start: at, end: text.length, line });
        }
      } else if (n <= indent) {
        items[items.length - 1]!.end = at;
        return { items, count, end: at, endLine: line };
      }
    }
    at = end;
    line++;
  }
  return items.length === 0 ? null : { items, count, end: -1, endLine: line };
}

/** The offset and line just after the first line `line` matches from `at` on, or null. */
function after(text: string, pattern: RegExp, at = 0, line = 1): { at: number; line: number } | null {
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    if (pattern.test(text.slice(at, nl === -1 ? text.length : nl).replace(/\r$/, ''))) return { at: end, line: line + 1 };
    at = end;
    line++;
  }
  return null;
}

/** The suite's cases as parts of its text, or null when the suite must be read whole. */
export function caseParts(text: string): CaseParts | null {
  if (/&[^\s]/.test(text)) return null;
  const cases = after(text, CASES_LINE);
  if (cases === null) return null;
  const list = blockList(text, cases.at, cases.line);
  if (list === null) return null;
  const rest = list.end === -1 ? '' : text.slice(list.end);
  if (rest !== '' && rest.split('\n').some((l) => CASES_LINE.test(l.replace(/\r$/, '')))) return null;
  const skipped = list.end === -1 ? 0 : list.endLine - cases.line;
  return { head: text.slice(0, cases.at) + '\n'.repeat(skipped) + rest, parts: list.items };
}

/** A case's (from caseParts, anchor-free) `packets:` list in parts when it is longer than LIST_PART, else null. */
export function packetParts(caseText: string): PacketParts | null {
  const keyIndent = /^( *- +)[^\s#]/.exec(caseText)?.[1]!.length;
  if (keyIndent === undefined) return null;
  const key = after(caseText, new RegExp(`^ {${keyIndent}}packets:[ \\t]*(#.*)?$`));
  if (key === null) return null;
  const list = blockList(caseText, key.at, key.line, LIST_PART);
  if (list === null || list.count <= LIST_PART) return null;
  const end = list.end === -1 ? caseText.length : list.end;
  const first = list.items[0]!;
  // `[]` on the first packet's line, where the list starts in the whole document (its 1M lines kept as empty lines made the YAML library hold a token each)
  const head = `${caseText.slice(0, first.start)}${' '.repeat(keyIndent + 2)}[]\n${caseText.slice(end)}`;
  return { head, gap: { after: first.line, lines: list.endLine - first.line - 1 }, parts: list.items };
}
