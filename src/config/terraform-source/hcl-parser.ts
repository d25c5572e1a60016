// The HCL parser of .tf files: tree-sitter's HCL grammar (its Terraform dialect, shipped as
// WebAssembly in datasets/hcl/) run by web-tree-sitter. It is loaded once, on first use: starting
// the WebAssembly takes about 25 ms, so a command that never reads a .tf file never pays it.
// Positions are exact (columns in UTF-16 code units, as SARIF and LSP count them by default), and
// a syntax error leaves an ERROR node where it is while the rest of the file still parses.
import type { Node, Parser } from 'web-tree-sitter';
import { datasetPath } from '../../data/datasets.js';

export type { Node as HclNode } from 'web-tree-sitter';

/** A place in a text: 1-based line and column (UTF-16 code units). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** A span of a text: its start and end (exclusive) as positions and as UTF-16 offsets into the text. */
export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
  startOffset: number;
  endOffset: number;
}

let parser: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  const { Parser: TreeSitter, Language } = await import('web-tree-sitter');
  await TreeSitter.init();
  const language = await Language.load(datasetPath('hcl/tree-sitter-terraform.wasm'));
  return new TreeSitter().setLanguage(language);
}

/** The range of a node of the tree. */
export function rangeOf(node: Node): SourceRange {
  return {
    start: { line: node.startPosition.row + 1, column: node.startPosition.column + 1 },
    end: { line: node.endPosition.row + 1, column: node.endPosition.column + 1 },
    startOffset: node.startIndex,
    endOffset: node.endIndex,
  };
}

/** The first syntax error of a tree (an ERROR node or a token the parser had to assume), if any. */
export function firstSyntaxError(root: Node): SourceRange | undefined {
  if (!root.hasError) return undefined;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) return rangeOf(node);
    if (node.hasError) stack.push(...[...node.children].reverse());
  }
  return undefined;
}

/**
 * Parses `text` as HCL and gives its tree's root to `read`, whose answer (plain data, not nodes) is
 * returned; the tree is freed after (web-tree-sitter's trees live in WebAssembly memory).
 */
export async function readHcl<T>(text: string, read: (root: Node) => T): Promise<T> {
  parser ??= load();
  const tree = (await parser).parse(text);
  if (tree === null) throw new Error('the HCL parser gave no tree');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
