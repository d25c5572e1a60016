// HCL string values as Terraform reads them: a quoted string ("…", with \n \" \\ \uNNNN escapes)
// or a heredoc (<<ID … ID, and <<-ID whose lines lose their common indentation), where `$${` and
// `%%{` stand for a literal `${` and `%{`. Where a string holds an interpolation (`${…}`) or a
// directive (`%{…}`), its value is known only to Terraform; its literal parts still are known here.
import { rangeOf, type HclNode, type SourceRange } from './hcl-parser.js';

/** A string written in a .tf file. */
export interface TemplateString {
  kind: 'quoted' | 'heredoc';
  /** the whole string, its quotes or heredoc markers included */
  range: SourceRange;
  /** what lies between the delimiters (a heredoc's: from the line after `<<ID` to the closing line) */
  contentRange: SourceRange;
  /** whether it holds `${…}` or `%{…}` (its value is then Terraform's to compute) */
  interpolated: boolean;
  /** its value, escapes decoded and a `<<-` heredoc's indentation removed; absent when interpolated */
  value?: string;
  /** the literal text around its interpolations, decoded: one more than there are interpolations */
  literals: string[];
  /**
   * The offset in the file of the character at `index` of `value` (when interpolated, of
   * `literals.join('')`); the length itself gives the content's end.
   */
  sourceOffset(index: number): number;
}

const HOLES = new Set(['template_interpolation', 'template_directive']);
const QUOTED_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** The string node an attribute's value is, if it is a string: a quoted string or a heredoc. */
function stringNode(expression: HclNode): HclNode | undefined {
  if (expression.namedChildCount !== 1) return undefined;
  const inner = expression.namedChildren[0]!;
  if (inner.type === 'literal_value') return inner.namedChildren[0]?.type === 'string_lit' ? inner.namedChildren[0] : undefined;
  if (inner.type === 'template_expr') return inner.namedChildren[0] ?? undefined;
  return undefined;
}

/** Where the content of a string node starts and ends, or undefined for a string the parser could not close. */
function contentSpan(node: HclNode, text: string): [number, number] | undefined {
  const children = node.children;
  const first = children[0];
  const last = children[children.length - 1];
  if (first === undefined || last === undefined || last.isMissing || node.hasError) return undefined;
  if (node.type !== 'heredoc_template') return [first.endIndex, last.startIndex];
  const opening = children[1];
  if (opening?.type !== 'heredoc_identifier' || last === opening || last.type !== 'heredoc_identifier') return undefined;
  const start = text.indexOf('\n', opening.endIndex) + 1;
  const end = text.lastIndexOf('\n', last.startIndex - 1) + 1;
  return start === 0 || end < start ? undefined : [start, end];
}

/** The indentation a `<<-` heredoc's lines lose: the least of its lines that are not blank. */
function commonIndent(text: string, start: number, end: number): number {
  let least = Infinity;
  for (let i = start; i < end; ) {
    const next = text.indexOf('\n', i);
    const lineEnd = next < 0 || next >= end ? end : next;
    let indent = 0;
    while (i + indent < lineEnd && (text[i + indent] === ' ' || text[i + indent] === '\t')) indent++;
    if (i + indent < lineEnd && text[i + indent] !== '\r') least = Math.min(least, indent);
    i = lineEnd + 1;
  }
  return least === Infinity ? 0 : least;
}

/** The string an attribute's value is (its `expression` node), read as Terraform reads it; undefined when the value is not a string. */
export function templateString(expression: HclNode, text: string): TemplateString | undefined {
  const node = stringNode(expression);
  if (node === undefined) return undefined;
  const span = contentSpan(node, text);
  if (span === undefined) return undefined;
  const [start, end] = span;
  const heredoc = node.type === 'heredoc_template';
  // tree-sitter-hcl 1.2.0 reads `$$${x}` as `$` and an interpolation; Terraform reads `$` then the
  // escape `$${` (the literal `$${x}`): a hole right after a `$` (a `%`, for a directive) is literal text
  const holes = node.children
    .filter((c) => HOLES.has(c.type) && text[c.startIndex - 1] !== text[c.startIndex])
    .map((c): [number, number] => [c.startIndex, c.endIndex]);
  const strip = heredoc && node.children[0]!.text === '<<-' ? commonIndent(text, start, end) : 0;
  const literals: string[] = [];
  const offsets: number[] = [];
  let literal = '';
  let indent = 0;
  let hole = 0;
  for (let i = start; i < end; ) {
    if (hole < holes.length && i === holes[hole]![0]) {
      literals.push(literal);
      literal = '';
      indent = strip;
      i = holes[hole++]![1];
      continue;
    }
    const c = text[i]!;
    if (indent < strip && (c === ' ' || c === '\t')) {
      indent++;
      i++;
      continue;
    }
    indent = strip;
    let decoded = c;
    let width = 1;
    if (c === '\n') indent = 0;
    else if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') {
      decoded = `${c}{`;
      width = 3;
    } else if (c === '\\' && !heredoc) {
      const e = text[i + 1] ?? '';
      const hex = e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex > 0 && /^[0-9a-fA-F]+$/.test(text.slice(i + 2, i + 2 + hex)) && i + 2 + hex <= end) {
        decoded = String.fromCodePoint(Number.parseInt(text.slice(i + 2, i + 2 + hex), 16));
        width = 2 + hex;
      } else if (e in QUOTED_ESCAPES) {
        decoded = QUOTED_ESCAPES[e]!;
        width = 2;
      }
    }
    // each decoded character at the source character it stands for (`$${`: `$` at the first, `{` at the last)
    for (let k = 0; k < decoded.length; k++) offsets.push(width === 3 && k === 1 ? i + 2 : i);
    literal += decoded;
    i += width;
  }
  literals.push(literal);
  offsets.push(end);
  const interpolated = holes.length > 0;
  return {
    kind: heredoc ? 'heredoc' : 'quoted',
    range: rangeOf(node),
    contentRange: contentRange(node, start, end, text),
    interpolated,
    ...(interpolated ? {} : { value: literal }),
    literals,
    sourceOffset: (index) => offsets[Math.max(0, Math.min(index, offsets.length - 1))]!,
  };
}

/** The range of the content [start, end) of a string node, positions counted from the node's own start. */
function contentRange(node: HclNode, start: number, end: number, text: string): SourceRange {
  const at = (offset: number): { line: number; column: number } => {
    let line = node.startPosition.row;
    let lineStart = node.startIndex - node.startPosition.column;
    for (let i = text.indexOf('\n', lineStart); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line: line + 1, column: offset - lineStart + 1 };
  };
  return { start: at(start), end: at(end), startOffset: start, endOffset: end };
}
