// One open document as the language server sees it: what kind of file it is (a configuration in a
// format `--config` reads, a suite, a `.rules` file, or JSON/YAML that merely holds expressions),
// the expressions it holds with their exact places, its syntax errors, the rules and lists it
// defines, and the capture a comment names. Built once per version of the text, on the editor's
// thread; the checks of the whole configuration run elsewhere (check/configuration.ts, in a worker).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getNodeValue, printParseErrorCode, type Node } from 'jsonc-parser';
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { jsonFormat } from '../config/inputs/detect.js';
import { isObject } from '../config/inputs/document.js';
import { isOctorulesFile } from '../config/inputs/octorules.js';
import { SNAPSHOT_SCHEMA } from '../config/resources.js';
import type { JsonPath } from '../config/schema.js';
import type { ExpressionKind } from '../lang/index.js';
import type { ConfigurationKind } from './check/configuration.js';
import { isExpressionLine, textLines } from './check/documents.js';
import { hosted, type HostedExpression } from './hosts/hosted.js';
import { jsonRange, readJson, type JsonDocument } from './hosts/json.js';
import { readYaml, yamlRange, type YamlDocument } from './hosts/yaml.js';
import { readHclDocument } from './hosts/hcl.js';

/** What a document is: a configuration lint reads, or JSON, YAML or HCL that only holds expressions. */
export type DocumentKind = ConfigurationKind | 'json' | 'yaml' | 'hcl';

/** A problem of the text itself (JSON or YAML syntax). */
export interface TextProblem {
  start: number;
  end: number;
  message: string;
}

/** A firewall rule (or ATP filter) of the document: where it is and what it is called. */
export interface RuleSite {
  path: JsonPath;
  /** its ref (else id, else its place): what symbols and reports call it */
  name: string;
  start: number;
  end: number;
  expression: HostedExpression;
}

/** A list the document defines. */
export interface ListSite {
  name: string;
  kind: string;
  items: number;
  /** the list's object, and its name's value */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
}

/** A comment naming something for edgesim: `# edgesim: capture=PATH`, `# edgesim: scheme=filter`. */
export interface Directive {
  value: string;
  start: number;
  end: number;
}

export interface DocumentModel {
  readonly uri: string;
  /** the document's path on disk (for files named relative to it), or its URI */
  readonly file: string;
  readonly version: number;
  readonly text: string;
  readonly kind: DocumentKind;
  readonly expressions: readonly HostedExpression[];
  readonly problems: readonly TextProblem[];
  readonly rules: readonly RuleSite[];
  readonly lists: readonly ListSite[];
  readonly capture: Directive | null;
  /** the [start, end) of the object at a path of the document (its own terms), if it is there */
  range(path: JsonPath): [number, number] | undefined;
}

/** The filesystem path of a `file:` URI, else the URI itself. */
export function filePath(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

function directive(text: string, name: string): Directive | null {
  const m = new RegExp(`#\\s*edgesim:\\s*${name}\\s*=\\s*(\\S+)`).exec(text);
  if (m === null) return null;
  const start = m.index + m[0].length - m[1]!.length;
  return { value: m[1]!, start, end: start + m[1]!.length };
}

const SNAPSHOT_KEYS = Object.keys(SNAPSHOT_SCHEMA.properties ?? {});

function jsonKind(root: Node | undefined): DocumentKind {
  if (root === undefined) return 'json';
  const value: unknown = getNodeValue(root);
  const format = jsonFormat(value);
  if (format !== 'snapshot') return format;
  return isObject(value) && SNAPSHOT_KEYS.some((k) => k in value) ? 'snapshot' : 'json';
}

function yamlKind(doc: YamlDocument): DocumentKind {
  let value: unknown;
  try {
    value = doc.doc.toJS({ maxAliasCount: 10_000 });
  } catch {
    // aliases past the limit (an alias bomb) or a tag that makes no value: not a configuration read here
    return 'yaml';
  }
  if (isOctorulesFile(value) && !(isObject(value) && ('cases' in value || 'config' in value))) return 'octorules';
  if (isObject(value) && ('cases' in value || 'config' in value)) return isMap(doc.doc.get('config', true)) ? 'suite' : 'yaml';
  return 'yaml';
}

/** Which way a document is read, from its name, its language and its content. */
function textKind(uri: string, languageId: string): 'rules' | 'json' | 'yaml' | 'hcl' {
  const ext = path.extname(uri.split(/[?#]/)[0]!).toLowerCase();
  if (ext === '.rules' || languageId === 'edgesim-rules') return 'rules';
  if (ext === '.tf' || languageId === 'terraform' || languageId === 'hcl') return 'hcl';
  if (ext === '.yaml' || ext === '.yml' || languageId === 'yaml') return 'yaml';
  return 'json';
}

const nameOf = (get: (key: string) => unknown, path: JsonPath): string => {
  for (const key of ['ref', 'id']) {
    const v = get(key);
    if (typeof v === 'string' && v !== '') return v;
  }
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
};

function jsonModel(base: Base, text: string): DocumentModel {
  const doc: JsonDocument = readJson(text);
  const kind = jsonKind(doc.root);
  const range = (p: JsonPath) => jsonRange(doc, p);
  const value = (p: JsonPath): unknown => {
    const r = doc.root && findValue(doc.root, p);
    return r === undefined ? undefined : getNodeValue(r);
  };
  const rules = doc.expressions.map((e) => ({ path: e.owner, name: nameOf((k) => value([...e.owner, k]), e.owner), ...span(range(e.owner), e), expression: e }));
  const lists: ListSite[] = [];
  const walk = (node: Node, p: JsonPath): void => {
    if (node.type === 'array' && p[p.length - 1] === 'lists') {
      node.children?.forEach((item) => {
        const name = item.type === 'object' ? item.children?.find((c) => c.children?.[0]?.value === 'name')?.children?.[1] : undefined;
        if (name?.type !== 'string') return;
        const v = getNodeValue(item) as Record<string, unknown>;
        lists.push({ name: name.value as string, kind: String(v.kind ?? 'ip'), items: Array.isArray(v.items) ? v.items.length : 0, start: item.offset, end: item.offset + item.length, nameStart: name.offset, nameEnd: name.offset + name.length });
      });
    }
    if (node.type === 'object') for (const prop of node.children ?? []) if (prop.children?.[1]) walk(prop.children[1], [...p, prop.children[0]!.value as string]);
    if (node.type === 'array') node.children?.forEach((c, k) => walk(c, [...p, k]));
  };
  if (doc.root !== undefined) walk(doc.root, []);
  const problems = doc.errors.map((e) => ({ start: e.offset, end: e.offset + Math.max(1, e.length), message: `JSON: ${syntaxWords(printParseErrorCode(e.error))}` }));
  return { ...base, text, kind, expressions: doc.expressions, problems, rules, lists, capture: null, range };
}

function findValue(root: Node, p: JsonPath): Node | undefined {
  let node: Node | undefined = root;
  for (const key of p) {
    if (node === undefined) return undefined;
    if (node.type === 'object' && typeof key === 'string') node = node.children?.find((c) => c.children?.[0]?.value === key)?.children?.[1];
    else if (node.type === 'array' && typeof key === 'number') node = node.children?.[key];
    else return undefined;
  }
  return node;
}

/** jsonc-parser's error code (`CommaExpected`) in words (`comma expected`). */
function syntaxWords(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function span(r: [number, number] | undefined, e: HostedExpression): { start: number; end: number } {
  return r === undefined ? { start: e.start, end: e.end } : { start: r[0], end: r[1] };
}

function yamlModel(base: Base, text: string): DocumentModel {
  const doc = readYaml(text);
  const kind = yamlKind(doc);
  const range = (p: JsonPath) => yamlRange(doc, p);
  const value = (p: JsonPath): unknown => {
    const node = doc.doc.getIn([...p], true);
    return isScalar(node) ? node.value : undefined;
  };
  const rules = doc.expressions.map((e) => ({ path: e.owner, name: nameOf((k) => value([...e.owner, k]), e.owner), ...span(range(e.owner), e), expression: e }));
  const lists: ListSite[] = [];
  for (const at of [['lists'], ['config', 'lists']]) {
    const seq = doc.doc.getIn(at, true);
    if (!isSeq(seq)) continue;
    for (const item of seq.items) {
      if (!isMap(item)) continue;
      const name = item.get('name', true) as YamlNode | undefined;
      if (!isScalar(name) || typeof name.value !== 'string' || name.range == null || item.range == null) continue;
      const items = item.get('items', true);
      lists.push({ name: name.value, kind: String(item.get('kind') ?? 'ip'), items: isSeq(items) ? items.items.length : 0, start: item.range[0], end: item.range[1], nameStart: name.range[0], nameEnd: name.range[1] });
    }
  }
  const problems = [...doc.doc.errors, ...doc.doc.warnings].map((e) => ({ start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), message: `YAML: ${e.message.split('\n')[0]!}` }));
  return { ...base, text, kind, expressions: doc.expressions, problems, rules, lists, capture: directive(text, 'capture'), range };
}

/** The scheme a `.rules` file's lines are checked against: `# edgesim: scheme=filter` for ATP filters. */
export function rulesScheme(text: string): ExpressionKind {
  return directive(text, 'scheme')?.value === 'filter' ? 'filter' : 'rule';
}

function rulesModel(base: Base, text: string): DocumentModel {
  const kind = rulesScheme(text);
  const starts: number[] = [];
  const lines = textLines(text);
  let offset = 0;
  for (const line of text.split('\n')) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const expressions: HostedExpression[] = [];
  const rules: RuleSite[] = [];
  lines.forEach((line, n) => {
    if (!isExpressionLine(line)) return;
    const start = starts[n]!;
    const offsets = Array.from({ length: line.length + 1 }, (_, i) => start + i);
    const e = hosted({ value: line, kind, start, end: start + line.length, uncheckable: null, owner: [n] }, offsets);
    expressions.push(e);
    rules.push({ path: [n], name: `line-${n + 1}`, start, end: start + line.length, expression: e });
  });
  const range = (p: JsonPath): [number, number] | undefined => {
    const n = p[0];
    return typeof n === 'number' && n < lines.length ? [starts[n]!, starts[n]! + lines[n]!.length] : undefined;
  };
  return { ...base, text, kind: 'rules', expressions, problems: [], rules, lists: [], capture: directive(text, 'capture'), range };
}

type Base = Pick<DocumentModel, 'uri' | 'file' | 'version'>;

/** Whether a document is a Terraform file, whose reading is asynchronous (readHcl). */
export function isHcl(uri: string, languageId: string): boolean {
  return textKind(uri, languageId) === 'hcl';
}

/** Reads one version of a Terraform (.tf) document: the rulesets' rule expressions. */
export async function readHcl(uri: string, version: number, text: string): Promise<DocumentModel> {
  const hcl = await readHclDocument(text);
  const ranges = new Map(hcl.items.map((i) => [JSON.stringify(i.path), [i.start, i.end] as [number, number]]));
  const rules = hcl.expressions.flatMap((e): RuleSite[] => {
    const item = hcl.items.find((i) => JSON.stringify(i.path) === JSON.stringify(e.owner));
    return item === undefined || e.uncheckable !== null ? [] : [{ path: e.owner, name: item.name, start: item.start, end: item.end, expression: e }];
  });
  const problems = hcl.syntaxError === undefined ? [] : [{ ...hcl.syntaxError, message: 'HCL: a syntax error (the rest of the file is still read)' }];
  return { uri, file: filePath(uri), version, text, kind: 'hcl', expressions: hcl.expressions, problems, rules, lists: [], capture: directive(text, 'capture'), range: (p) => ranges.get(JSON.stringify(p)) };
}

/** Reads one version of a document (a Terraform file: readHcl). */
export function readDocument(uri: string, languageId: string, version: number, text: string): DocumentModel {
  const base: Base = { uri, file: filePath(uri), version };
  switch (textKind(uri, languageId)) {
    case 'rules':
      return rulesModel(base, text);
    case 'yaml':
      return yamlModel(base, text);
    case 'hcl':
      return { ...base, text, kind: 'hcl', expressions: [], problems: [], rules: [], lists: [], capture: directive(text, 'capture'), range: () => undefined };
    default:
      return jsonModel(base, text);
  }
}

/** The configuration kind lint reads the document as, or null when it is not a configuration. */
export function configurationKind(model: DocumentModel): ConfigurationKind | null {
  return model.kind === 'json' || model.kind === 'yaml' || model.kind === 'hcl' ? null : model.kind;
}

/**
 * One expression as a document of its own (the playground's editor): the text is the expression, the
 * rule holding it is a snapshot's first (`rulesets[0].rules[0]`), and `lists` are the lists it may name.
 */
export function expressionDocument(text: string, kind: ExpressionKind, lists: ReadonlyArray<{ name: string; kind: string; items: number }> = []): DocumentModel {
  const owner = ['rulesets', 0, 'rules', 0];
  const e = hosted({ value: text, kind, start: 0, end: text.length, uncheckable: null, owner }, Array.from({ length: text.length + 1 }, (_, i) => i));
  return {
    uri: 'expression',
    file: 'expression',
    version: 0,
    text,
    kind: 'json',
    expressions: [e],
    problems: [],
    rules: [{ path: owner, name: 'expression', start: 0, end: text.length, expression: e }],
    lists: lists.map((l) => ({ ...l, start: 0, end: 0, nameStart: 0, nameEnd: 0 })),
    capture: null,
    range: () => [0, text.length],
  };
}
