// The document's outline and its words: its rules (named by ref) and lists as symbols, a list name's
// definition (the document's list, or the bundled sample of a managed list), and semantic tokens for
// the expressions the parser reads (fields, functions, lists, operators, keywords, literals), from the
// parser's own tokens: only an expression the engine accepts is coloured this way (the TextMate
// grammar colours the rest).
import { parseWithTokens, type Token } from '../../lang/index.js';
import { datasetPath } from '../../data/datasets.js';
import type { DocumentModel } from '../document.js';
import { utf16Index, type HostedExpression } from '../hosts/hosted.js';
import { managedListSize, schemeOf } from '../language/vocabulary.js';
import { expressionAt, wordAt } from './context.js';

export interface OutlineSymbol {
  name: string;
  kind: 'rule' | 'filter' | 'list';
  detail: string;
  start: number;
  end: number;
  selectionStart: number;
  selectionEnd: number;
}

export function symbolsOf(model: DocumentModel): OutlineSymbol[] {
  const rules = model.rules.map((r): OutlineSymbol => ({
    name: r.name,
    kind: r.expression.kind === 'filter' ? 'filter' : 'rule',
    detail: r.expression.value.replace(/\s+/g, ' ').slice(0, 120),
    start: r.start,
    end: r.end,
    selectionStart: r.expression.start,
    selectionEnd: r.expression.end,
  }));
  const lists = model.lists.map((l): OutlineSymbol => ({ name: `$${l.name}`, kind: 'list', detail: `${l.kind} list, ${l.items} items`, start: l.start, end: l.end, selectionStart: l.nameStart, selectionEnd: l.nameEnd }));
  return [...rules, ...lists].sort((a, b) => a.start - b.start);
}

/** Where the list named at an offset is defined: in this document, or a file (a managed list's bundled sample). */
export function definitionAt(model: DocumentModel, offset: number): { start: number; end: number } | { file: string } | undefined {
  const at = expressionAt(model, offset);
  const word = at === undefined ? undefined : wordAt(at.e.value, at.index);
  if (word === undefined || !word.text.startsWith('$')) return undefined;
  const name = word.text.slice(1);
  const own = model.lists.find((l) => l.name === name);
  if (own !== undefined) return { start: own.nameStart, end: own.nameEnd };
  if (managedListSize(name) !== undefined) return { file: datasetPath(`lists/svc.${name.replace(/^(cf|svc)\./, '')}.txt`) };
  return undefined;
}

/** The semantic token types, in the legend's order. */
export const TOKEN_TYPES = ['property', 'function', 'variable', 'operator', 'keyword', 'string', 'number'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

function tokenType(t: Token): TokenType | null {
  switch (t.kind) {
    case 'field':
      return 'property';
    case 'function':
      return 'function';
    case 'list':
      return 'variable';
    case 'operator':
      return 'operator';
    case 'logical':
    case 'not':
    case 'quantifier':
      return 'keyword';
    case 'literal':
      return /^(r#*)?"/.test(t.text) ? 'string' : 'number';
    default:
      return null;
  }
}

const tokensKept = new Map<string, Token[] | null>();

function tokensOf(e: HostedExpression): Token[] | null {
  const key = `${e.kind}\u0000${e.value}`;
  if (!tokensKept.has(key)) {
    if (tokensKept.size > 20_000) tokensKept.clear();
    let tokens: Token[] | null;
    try {
      tokens = parseWithTokens(e.value, schemeOf(e.kind)).tokens;
    } catch {
      tokens = null;
    }
    tokensKept.set(key, tokens);
  }
  return tokensKept.get(key)!;
}

export interface SemanticToken {
  start: number;
  end: number;
  type: TokenType;
}

/** The semantic tokens of the document's expressions, in document order, one line each (a token the host splits across lines is left out). */
export function semanticTokens(model: DocumentModel): SemanticToken[] {
  const out: SemanticToken[] = [];
  for (const e of model.expressions) {
    if (e.inexact !== null || e.uncheckable !== null) continue;
    for (const t of tokensOf(e) ?? []) {
      const type = tokenType(t);
      if (type === null) continue;
      const start = e.at(utf16Index(e.value, t.start));
      const end = e.at(utf16Index(e.value, t.end));
      if (end <= start || model.text.slice(start, end).includes('\n')) continue;
      out.push({ start, end, type });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
