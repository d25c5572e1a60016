// Expressions in JSON documents (edgesim snapshots, the vendor API's responses, Terraform's JSON):
// every string under an `expression` key, read by jsonc-parser, which keeps offsets and goes on
// past syntax errors, so the expressions of a half-typed file are still checked. A JSON string's
// escapes are mapped one by one: `\u0070` is one character of the value written as six.
import { findNodeAtLocation, getNodePath, parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { JsonPath } from '../../config/schema.js';
import { hosted, kindAt, type HostedExpression } from './hosted.js';

/** The offsets in `text` of each UTF-16 unit of the JSON string token at [start, end) (quotes included), and one past the last. */
export function jsonStringOffsets(text: string, start: number, end: number): number[] {
  const offsets: number[] = [];
  let i = start + 1;
  const close = end - 1;
  while (i < close) {
    if (text[i] !== '\\') {
      offsets.push(i);
      i++;
      continue;
    }
    if (text[i + 1] === 'u') {
      offsets.push(i);
      i += 6;
    } else {
      offsets.push(i);
      i += 2;
    }
  }
  offsets.push(close);
  return offsets;
}

export interface JsonDocument {
  readonly root: Node | undefined;
  readonly errors: readonly ParseError[];
  readonly expressions: readonly HostedExpression[];
}

/** The tree of a JSON text (comments and trailing commas tolerated, as an editor's text may have them). */
export function readJson(text: string): JsonDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false }) ?? undefined;
  const expressions: HostedExpression[] = [];
  const walk = (node: Node): void => {
    if (node.type === 'property') {
      const [key, value] = node.children ?? [];
      if (key?.value === 'expression' && value?.type === 'string' && node.parent !== undefined) {
        const owner = getNodePath(node.parent);
        expressions.push(
          hosted({ value: value.value as string, kind: kindAt(owner), start: value.offset, end: value.offset + value.length, uncheckable: null, owner, encode: (t) => JSON.stringify(t).slice(1, -1) }, jsonStringOffsets(text, value.offset, value.offset + value.length)),
        );
      }
    }
    for (const child of node.children ?? []) walk(child);
  };
  if (root !== undefined) walk(root);
  return { root, errors, expressions };
}

/** The node at a path of the document, as [start, end) offsets. */
export function jsonRange(doc: JsonDocument, path: JsonPath): [number, number] | undefined {
  const node = doc.root && findNodeAtLocation(doc.root, [...path]);
  return node === undefined ? undefined : [node.offset, node.offset + node.length];
}
