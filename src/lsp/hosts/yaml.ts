// Expressions in YAML documents (octorules account files, suites' inline configurations): every
// scalar under an `expression` key, read by the yaml package with its source tokens. A scalar's value
// is rebuilt from its source here with the offset of every character (plain and quoted scalars
// folded across lines, escapes, block literals and folded blocks), and the rebuilt value is checked
// against the parser's own: where they differ (a construct this mapping does not rebuild) the
// expression is reported as inexact and its ranges cover the whole scalar.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Scalar } from 'yaml';
import type { JsonPath } from '../../config/schema.js';
import { hosted, kindAt, type HostedExpression } from './hosted.js';

type Mapped = { value: string; offsets: number[] };

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** Lines of source [from, to) as [start, end) offsets, without their line breaks. */
function linesOf(text: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = from;
  for (let i = from; i < to; i++) {
    if (text[i] === '\n') {
      out.push([s, i > s && text[i - 1] === '\r' ? i - 1 : i]);
      s = i + 1;
    }
  }
  out.push([s, to]);
  return out;
}

const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A value being rebuilt, each UTF-16 unit with the source offset that writes it. */
function collector() {
  const value: string[] = [];
  const offsets: number[] = [];
  const put = (s: string, at: number): void => {
    for (const unit of s.split('')) {
      value.push(unit);
      offsets.push(at);
    }
  };
  return { value, offsets, put };
}

/**
 * A flow scalar's content [from, to) (inside the quotes for quoted ones): lines folded as YAML folds
 * them (a single line break between two lines is a space, each empty line a line feed, blanks around
 * breaks dropped), quotes' escapes decoded.
 */
function foldFlow(text: string, from: number, to: number, style: 'plain' | 'single' | 'double'): Mapped {
  const { value, offsets, put } = collector();
  const lines = linesOf(text, from, to);
  let pendingBreak: number | null = null;
  let empties: number[] = [];
  lines.forEach(([s, e], n) => {
    let a = s;
    let b = e;
    if (n > 0) while (a < b && isBlank(text[a])) a++;
    const last = n === lines.length - 1;
    const content = a < b;
    if (!content && !last && n > 0) {
      empties.push(s);
      return;
    }
    if (pendingBreak !== null) {
      if (empties.length === 0) put(' ', pendingBreak);
      else for (const at of empties) put('\n', at);
      pendingBreak = null;
      empties = [];
    }
    // the trailing blanks of a line that a break ends are dropped (unless escaped)
    let keepEnd = b;
    if (!last) while (keepEnd > a && isBlank(text[keepEnd - 1])) keepEnd--;
    let i = a;
    let escapedBreak = false;
    while (i < keepEnd) {
      const c = text[i]!;
      if (style === 'single' && c === "'" && text[i + 1] === "'") {
        put("'", i);
        i += 2;
      } else if (style === 'double' && c === '\\') {
        const next = text[i + 1];
        if (i + 1 >= keepEnd) {
          // an escaped line break: the lines join with nothing between them
          escapedBreak = true;
          i++;
        } else if (next !== undefined && next in HEX_ESCAPES) {
          const digits = HEX_ESCAPES[next]!;
          put(String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + digits), 16)), i);
          i += 2 + digits;
        } else if (next !== undefined && next in DOUBLE_ESCAPES) {
          put(DOUBLE_ESCAPES[next]!, i);
          i += 2;
        } else {
          put(c, i);
          i++;
        }
      } else {
        put(c, i);
        i++;
      }
    }
    if (escapedBreak) {
      // blanks before the escaped break are kept: they were before the backslash
      pendingBreak = null;
      empties = [];
      return;
    }
    if (!last) pendingBreak = keepEnd;
  });
  offsets.push(to);
  return { value: value.join(''), offsets };
}

/** A block scalar's content [from, to) after its header (`|` or `>`, chomping `header`). */
function blockScalar(text: string, from: number, to: number, header: string, parentIndent: number): Mapped {
  const folded = header.startsWith('>');
  const chomp = header.includes('-') ? 'strip' : header.includes('+') ? 'keep' : 'clip';
  const lines = linesOf(text, from, to);
  if (lines.length > 0 && lines[lines.length - 1]![0] === to) lines.pop();
  const first = lines.find(([s, e]) => text.slice(s, e).trim() !== '');
  const explicit = /[1-9]/.exec(header);
  let indent = explicit === null ? 0 : parentIndent + Number(explicit[0]);
  if (explicit === null && first !== undefined) while (text[first[0] + indent] === ' ') indent++;
  const { value, offsets, put } = collector();
  /** offsets of the line breaks not yet written */
  let breaks: number[] = [];
  let prevKind: 'none' | 'text' | 'more' = 'none';
  for (const [s, e] of lines) {
    const body = s + indent <= e ? s + indent : e;
    const empty = text.slice(s, e).trim() === '' && e - s <= indent;
    if (empty) {
      breaks.push(e);
      continue;
    }
    const kind = isBlank(text[body]) ? 'more' : 'text';
    if (prevKind !== 'none') {
      const [firstBreak, ...rest] = breaks;
      if (folded && prevKind === 'text' && kind === 'text') {
        if (rest.length === 0) put(' ', firstBreak!);
        else for (const at of rest) put('\n', at);
      } else for (const at of breaks) put('\n', at);
    } else for (const at of breaks) put('\n', at);
    breaks = [];
    for (let i = body; i < e; i++) put(text[i]!, i);
    breaks.push(e);
    prevKind = kind;
  }
  if (chomp !== 'strip' && prevKind !== 'none') {
    if (chomp === 'clip') put('\n', breaks[0]!);
    else for (const at of breaks) put('\n', at);
  }
  offsets.push(to);
  return { value: value.join(''), offsets };
}

/** The value of a scalar rebuilt from its source with each character's offset; null when its source is not at hand. */
function mapScalar(text: string, node: Scalar): Mapped | null {
  const token = node.srcToken as { type: string; offset: number; indent: number; source: string; props?: Array<{ type: string; offset: number; source: string }> } | undefined;
  if (token === undefined) return null;
  switch (token.type) {
    case 'scalar':
      return foldFlow(text, token.offset, token.offset + token.source.length, 'plain');
    case 'single-quoted-scalar':
      return foldFlow(text, token.offset + 1, token.offset + token.source.length - 1, 'single');
    case 'double-quoted-scalar':
      return foldFlow(text, token.offset + 1, token.offset + token.source.length - 1, 'double');
    case 'block-scalar': {
      const props = token.props ?? [];
      const header = props.find((p) => p.type === 'block-scalar-header')?.source ?? '|';
      const last = props[props.length - 1];
      const from = last === undefined ? token.offset : last.offset + last.source.length;
      return blockScalar(text, from, from + token.source.length, header, token.indent);
    }
    default:
      return null;
  }
}

/** How text is written inside a scalar of this style, or null where it would change the scalar's meaning. */
function encoderFor(node: Scalar): (text: string) => string | null {
  switch (node.type) {
    case 'QUOTE_DOUBLE':
      return (t) => JSON.stringify(t).slice(1, -1);
    case 'QUOTE_SINGLE':
      return (t) => (t.includes('\n') ? null : t.replace(/'/g, "''"));
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      return (t) => (t.includes('\n') ? null : t);
    default:
      return (t) => (/: |\s#|\n/.test(t) ? null : t);
  }
}

/** A hosted expression from a YAML scalar under `owner` (the map holding its `expression` key). */
export function yamlExpression(text: string, node: Scalar, owner: JsonPath): HostedExpression {
  const [start, , end] = node.range ?? [0, 0, 0];
  const value = String(node.value);
  const mapped = mapScalar(text, node);
  const fields = { value, kind: kindAt(owner), start, end: Math.max(start, end), uncheckable: null, owner, encode: encoderFor(node) };
  if (mapped === null || mapped.value !== value) {
    return hosted(fields, null, `the positions inside this ${String(node.type ?? 'YAML').toLowerCase().replace('_', ' ')} scalar are not mapped: ranges cover the whole value`);
  }
  return hosted(fields, mapped.offsets);
}

export interface YamlDocument {
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  readonly expressions: readonly HostedExpression[];
}

/** The document and every scalar under an `expression` key (non-scalars there are the schema's to refuse). */
export function readYaml(text: string): YamlDocument {
  const lines = new LineCounter();
  const doc = parseDocument(text, { keepSourceTokens: true, lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const expressions: HostedExpression[] = [];
  const walk = (node: unknown, path: JsonPath): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (key === 'expression' && isScalar(pair.value) && typeof pair.value.value === 'string') expressions.push(yamlExpression(text, pair.value, path));
        else walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
  };
  walk(doc.contents, []);
  return { doc, lines, expressions };
}

/** The node at a path of the document, as [start, end) offsets (a map's or a sequence item's whole extent). */
export function yamlRange(doc: YamlDocument, path: JsonPath): [number, number] | undefined {
  const node = doc.doc.getIn([...path], true) as Node | undefined;
  if (node?.range == null) return undefined;
  return [node.range[0], node.range[1]];
}
