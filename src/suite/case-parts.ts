// A suite of many cases is read a case at a time: the YAML library's document for a whole 18 MB
// suite took 1.3 GB, while each case's own text parses into a document of its own that is dropped
// once the case is checked. This applies to the usual shape of a suite: a top-level `cases:` line
// followed by a block list (`- name: ...`), and no anchor anywhere (an alias may name an anchor of
// another case, which needs the whole document). Any other suite is read whole.

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

const CASES_LINE = /^cases:[ \t]*(#.*)?$/;

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** The suite's cases as parts of its text, or null when the suite must be read whole. */
export function caseParts(text: string): CaseParts | null {
  if (/&[^\s]/.test(text)) return null;
  let at = 0;
  let line = 1;
  let casesEnd = -1;
  let casesLine = 0;
  let indent = -1;
  const parts: CasePart[] = [];
  let listEnd = -1;
  let listEndLine = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    const content = text.slice(at, nl === -1 ? text.length : nl).replace(/\r$/, '');
    if (casesEnd === -1) {
      if (CASES_LINE.test(content)) {
        casesEnd = end;
        casesLine = line;
      }
    } else if (content.startsWith('\t')) {
      return null;
    } else if (content.trim() !== '' && !content.trimStart().startsWith('#')) {
      const n = indentOf(content);
      const item = content.startsWith('-', n) && (content.length === n + 1 || content[n + 1] === ' ');
      if (indent === -1) {
        if (!item) return null;
        indent = n;
      }
      if (n === indent && item) {
        if (parts.length > 0) parts[parts.length - 1]!.end = at;
        parts.push({ start: at, end: text.length, line });
      } else if (n <= indent) {
        listEnd = at;
        listEndLine = line;
        break;
      }
    }
    at = end;
    line++;
  }
  if (parts.length === 0) return null;
  if (listEnd !== -1) parts[parts.length - 1]!.end = listEnd;
  const after = listEnd === -1 ? '' : text.slice(listEnd);
  if (after !== '' && after.split('\n').some((l) => CASES_LINE.test(l.replace(/\r$/, '')))) return null;
  const skipped = listEnd === -1 ? 0 : listEndLine - casesLine - 1;
  return { head: text.slice(0, casesEnd) + '\n'.repeat(skipped) + after, parts };
}
