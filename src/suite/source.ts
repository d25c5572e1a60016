// A suite file as a tree of located values: every map, list and scalar keeps the line it starts on,
// so that a suite error names the file, the line and the key (`suite.yaml:12: cases[1].packet.tcp.dstprot:
// unknown field`). YAML 1.2 is a superset of JSON, so one parser (the `yaml` library, whose LineCounter
// turns offsets into lines) reads both kinds of suite. A suite holds JSON's kinds of value only: a
// tag that makes something else (`!!binary`, `!!timestamp`, `!!set`) is refused where it is written.
// Anchors may be reused freely (a packet or a rule written once, named by many cases), but a value
// whose aliases expand to more than MAX_ALIAS_EXPANSION nodes is refused as an alias bomb.
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Alias, type Document, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { statSync } from 'node:fs';
import path from 'node:path';
import { distance } from '../capture/synth/json-checks.js';
import { caseParts, packetParts, type CasePart } from './case-parts.js';
import { UserError } from '../errors.js';
import { groupDigits } from '../numbers.js';

/** An invalid suite: one line, `FILE:LINE: key: message`, exit 2, and no case runs. */
export class SuiteError extends UserError {
  override name = 'SuiteError';

  constructor(
    file: string,
    /** the line of the suite the problem is on */
    readonly line: number,
    key: string,
    message: string,
  ) {
    super(key === '' ? message : `${key}: ${message}`, { source: `${file}:${line}`, exitCode: 2 });
  }
}

export type NodeType = 'map' | 'list' | 'string' | 'number' | 'boolean' | 'null';

/** How far one value's aliases may expand (the `yaml` library counts each alias's nodes). */
export const MAX_ALIAS_EXPANSION = 10_000;

/** The tags that make JSON's kinds of value (written `!!str` etc., or implied). */
const JSON_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** The parsed suite: its document, lines, and each alias's anchored node (found once, not per alias). */
interface SuiteDocument {
  doc: Document.Parsed;
  lines: LineCounter;
  /** the line in the suite of a line of the document (a case read apart starts further down) */
  place: LinePlace;
  anchored: Map<Alias, Node>;
  /** the lists of this document read in parts (a long `packets:` list, left empty in it): their items, given the list's key and line */
  parts: Map<Node, (key: string, line: number) => Iterable<Located>>;
}

/** One value of the suite with where it is. */
export class Located {
  constructor(
    readonly file: string,
    /** the dotted path of the value, e.g. cases[2].expect.frames.5 */
    readonly key: string,
    readonly line: number,
    node: Node | null,
    private readonly source: SuiteDocument,
  ) {
    this.keyLine = line;
    // an alias (*name) stands for the node its anchor (&name) marks; lines stay the alias's own
    this.node = isAlias(node) ? (source.anchored.get(node) ?? null) : node;
  }

  private readonly node: Node | null;

  private keyLine: number;

  get type(): NodeType {
    const n = this.node;
    if (isMap(n)) return 'map';
    if (isSeq(n)) return 'list';
    const v = isScalar(n) ? n.value : null;
    if (v === null || v === undefined) return 'null';
    return typeof v === 'string' ? 'string' : typeof v === 'number' || typeof v === 'bigint' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
  }

  /** The plain JavaScript value (maps as objects, lists as arrays); fails on an alias bomb. */
  get value(): unknown {
    if (this.node === null) return null;
    try {
      return this.node.toJS(this.source.doc, { maxAliasCount: MAX_ALIAS_EXPANSION }) as unknown;
    } catch (err) {
      if (!(err instanceof ReferenceError)) throw err;
      return this.fail(`its aliases expand to more than ${groupDigits(MAX_ALIAS_EXPANSION)} values: refused as an alias bomb`);
    }
  }

  /** A map's entries in order, keys as text; fails when this is not a map. */
  entries(what = 'a map'): Array<[string, Located]> {
    const n = this.node;
    if (!isMap(n)) this.fail(`expected ${what}, got ${describeType(this.type)}`);
    return n.items.map((pair) => {
      const keyNode = pair.key as Node | null;
      const name = String(isScalar(keyNode) ? keyNode.value : keyNode?.toJSON());
      const at = this.lineOf(keyNode) ?? this.line;
      const child = (pair.value as Node | null) ?? null;
      return [name, new Located(this.file, this.childKey(name), this.lineOf(child) ?? at, child, this.source).keyedAt(at)];
    });
  }

  /** A list's items; fails when this is not a list. */
  items(what = 'a list'): Located[] {
    return [...this.eachItem(what)];
  }

  /** Whether this is a list read in parts (a long `packets:` list): each eachItem() reads its text again, part by part, and no part's items are held. */
  get readInParts(): boolean {
    return this.node !== null && this.source.parts.has(this.node);
  }

  /** A list's items one at a time (a list read in parts holds one part's document at a time); fails when this is not a list. */
  *eachItem(what = 'a list'): Iterable<Located> {
    const n = this.node;
    if (!isSeq(n)) this.fail(`expected ${what}, got ${describeType(this.type)}`);
    const parts = this.source.parts.get(n);
    if (parts !== undefined) return yield* parts(this.key, this.line);
    for (const [i, item] of n.items.entries()) yield new Located(this.file, `${this.key}[${i}]`, this.lineOf(item as Node) ?? this.line, item as Node, this.source);
  }

  /** Fails, unless every key of this map is one of `allowed` (with a did-you-mean for a near miss). */
  checkKeys(allowed: readonly string[], what = 'key'): Map<string, Located> {
    const out = new Map<string, Located>();
    for (const [name, child] of this.entries()) {
      if (!allowed.includes(name)) child.failKey(`unknown ${what}${suggestion(name, allowed, allowed.length <= 12)}`);
      out.set(name, child);
    }
    return out;
  }

  fail(message: string): never {
    throw this.error(message);
  }

  /** The suite error at this value, for a caller that reports it rather than throws it. */
  error(message: string): SuiteError {
    return new SuiteError(this.file, this.line, this.key, message);
  }

  /** Fails pointing at the line of this value's key rather than its value. */
  failKey(message: string): never {
    throw new SuiteError(this.file, this.keyLine, this.key, message);
  }

  private keyedAt(line: number): this {
    this.keyLine = line;
    return this;
  }

  private childKey(name: string): string {
    return this.key === '' ? name : `${this.key}.${name}`;
  }

  private lineOf(node: Node | null | undefined): number | undefined {
    return lineOf(this.source, node);
  }
}

function lineOf(source: Pick<SuiteDocument, 'lines' | 'place'>, node: Node | null | undefined): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : source.place(source.lines.linePos(start).line);
}

/** ` (did you mean "x"?)` for a near miss; else the list of choices when `list` is set. */
export function suggestion(name: string, allowed: readonly string[], list: boolean): string {
  const near = allowed.map((k) => ({ k, d: distance(k, name) })).filter((c) => c.d <= Math.max(2, Math.floor(name.length / 4))).sort((a, b) => a.d - b.d);
  if (near.length > 0) return ` (did you mean "${near[0]!.k}"?)`;
  return list ? `; expected one of ${allowed.join(', ')}` : '';
}

export function describeType(t: NodeType): string {
  return t === 'map' ? 'a map' : t === 'list' ? 'a list' : t === 'null' ? 'nothing' : `a ${t}`;
}

/** Resolves a file the suite names relative to its folder; a missing file is a suite error. */
export function existingFile(at: Located, dir: string, what: string): string {
  if (at.type !== 'string' || at.value === '') at.fail(`expected the path of ${what} (a string), got ${at.type}`);
  if ((at.value as string).includes('\0')) at.fail(`${JSON.stringify(at.value)}: a path cannot hold a NUL character`);
  const file = path.resolve(dir, at.value as string);
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return at.fail(`${JSON.stringify(at.value)}: no such file (paths are relative to the suite's folder)`);
  }
  if (!isFile) at.fail(`${JSON.stringify(at.value)} is not a file`);
  return file;
}

/**
 * Walks the document once, in order: each alias gets the node its anchor marks (the last anchor of
 * that name before it), and a value with a tag outside JSON's kinds is a SuiteError at its line.
 */
function resolveDocument(file: string, doc: Document.Parsed, lines: LineCounter, place: LinePlace, keyOf: (key: string) => string): SuiteDocument {
  const anchors = new Map<string, Node>();
  const anchored = new Map<Alias, Node>();
  visit(doc, {
    Node: (_key, node, path) => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target !== undefined) anchored.set(node, target);
        return;
      }
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      if (node.tag !== undefined && !JSON_TAGS.has(node.tag)) {
        const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
        throw new SuiteError(file, lineOf({ lines, place }, node) ?? place(1), keyOf(keyPath(path, node)), `${tag} values are not read by suites: remove the tag (a suite holds maps, lists, strings, numbers, true, false and null)`);
      }
    },
  });
  return { doc, lines, place, anchored, parts: new Map() };
}

/** The dotted key of `node` (as Located names it) from the ancestors visit() passes. */
function keyPath(ancestors: readonly unknown[], node: Node): string {
  const chain = [...ancestors, node];
  let key = '';
  for (let i = 1; i < chain.length; i++) {
    const parent = chain[i - 1];
    const child = chain[i];
    if (isSeq(parent)) key += `[${parent.items.indexOf(child as Node)}]`;
    if (isPair(parent) && parent.value === child) {
      const k = parent.key as Node | null;
      const name = String(isScalar(k) ? k.value : k?.toJSON());
      key = key === '' ? name : `${key}.${name}`;
    }
  }
  return key;
}

/** A line of a document read apart to the line of the suite it is on. */
type LinePlace = (line: number) => number;

/** The document's line `line` is line `line + by` of the suite. */
const shifted =
  (by: number): LinePlace =>
  (line) =>
    line + by;

/** Parses YAML whose lines `place` puts in the suite; a syntax error is a SuiteError at its line. */
function parseYaml(file: string, text: string, place = shifted(0), keyOf = (key: string): string => key): SuiteDocument {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (err !== undefined) {
    const line = err.linePos?.[0]?.line ?? lines.linePos(err.pos[0]).line;
    throw new SuiteError(file, place(line), '', `not valid YAML: ${err.message.split('\n')[0]}`);
  }
  return resolveDocument(file, doc, lines, place, keyOf);
}

/** Parses suite text (YAML or JSON); a syntax error is a SuiteError at its line. */
export function parseSuiteText(file: string, text: string): Located {
  const source = parseYaml(file, text);
  return new Located(file, '', 1, (source.doc.contents as Node | null) ?? null, source);
}

/** A suite's top map, and its cases when they are read a case at a time (case-parts.ts); else null: they are in `top`. */
export interface SuiteText {
  top: Located;
  cases: { count: number; each: () => Iterable<Located> } | null;
}

/**
 * The items of a list read in `parts` of `text` (whose line 1 is line `shift + 1` of the suite), one
 * part's document at a time, named and placed as the whole document would name and place them.
 */
function* listItems(file: string, text: string, parts: readonly CasePart[], shift: number, key: string, line: number): Iterable<Located> {
  let index = 0;
  for (const part of parts) {
    const first = index;
    const source = parseYaml(file, `x:\n${text.slice(part.start, part.end)}`, shifted(shift + part.line - 2), (k) => k.replace(/^x\[(\d+)\]/, (_m, n: string) => `${key}[${first + Number(n)}]`));
    for (const item of ((source.doc.contents as YAMLMap).items[0]!.value as YAMLSeq).items as Array<Node | null>) {
      yield new Located(file, `${key}[${index++}]`, lineOf(source, item) ?? line, item, source);
    }
  }
}

/** Reads a suite's text: large suites of the usual shape a case at a time, others whole. */
export function readSuiteText(file: string, text: string): SuiteText {
  const split = caseParts(text);
  if (split === null) return { top: parseSuiteText(file, text), cases: null };
  const top = parseSuiteText(file, split.head);
  function* each(): Iterable<Located> {
    for (const [i, part] of split!.parts.entries()) {
      const key = `cases[${i}]`;
      const caseText = text.slice(part.start, part.end);
      const packets = packetParts(caseText);
      // the case's lines after an empty `packets:` list are further down, past the list's own lines
      const gap = packets?.gap;
      const place = gap === undefined ? shifted(part.line - 2) : (line: number) => line + part.line - 2 + (line - 1 > gap.after ? gap.lines : 0);
      const source = parseYaml(file, `cases:\n${packets?.head ?? caseText}`, place, (k) => k.replace(/^cases\[0\]/, key));
      const item = (((source.doc.contents as YAMLMap).items[0]!.value as YAMLSeq).items[0] as Node | undefined) ?? null;
      const list = packets !== null && isMap(item) ? (item.get('packets', true) as Node | undefined) : undefined;
      if (list !== undefined) source.parts.set(list, (listKey, line) => listItems(file, caseText, packets!.parts, part.line - 1, listKey, line));
      yield new Located(file, key, part.line, item, source);
    }
  }
  return { top, cases: { count: split.parts.length, each } };
}
