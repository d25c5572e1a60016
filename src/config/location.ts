// Where an item of a configuration is written in the user's own file, so that findings, failing
// cases and changed rules can point at it (lint's SARIF and annotations, JUnit, diff reports).
// JSON files are read a second time by a parser that keeps offsets (jsonc-parser) rather than by
// searching the text; Terraform JSON names a resource address too, and its rules are placed in the
// .tf files they are written in where those are found (terraform-source/). The JSON
// parser is loaded when a place is first asked for, not when a configuration is read: a replay never
// asks, and loading it costs a command several milliseconds of start-up.
import { createRequire } from 'node:module';
import type { Node } from 'jsonc-parser';

let jsonc: typeof import('jsonc-parser') | undefined;

/** A place in the user's file. */
export interface SourceLocation {
  /** the file as the user named it */
  file: string;
  /** 1-based line and column of the item's object, where the format has lines */
  line?: number;
  column?: number;
  /** where the item ends (exclusive), where it is known (a .tf file's block or attribute) */
  endLine?: number;
  endColumn?: number;
  /** Terraform's name for the item: the resource address and the rule's position, e.g. `module.fw.cloudflare_ruleset.mt rules[3]` */
  address?: string;
}

/** A place as one line of text: `file:line:column` (and Terraform's address), or `file address` where the format has no lines. */
export function placeText(at: SourceLocation): string {
  if (at.line === undefined) return at.address === undefined ? at.file : `${at.file} ${at.address}`;
  return `${at.file}:${at.line}${at.column === undefined ? '' : `:${at.column}`}${at.address === undefined ? '' : ` (${at.address})`}`;
}

/** What of a rule to point at: the rule itself, or its `expression` (where the format places it apart: .tf files). */
export type RulePart = 'rule' | 'expression';

/**
 * Where each rule of a loaded snapshot is written, by the ruleset's index in `rulesets` and the
 * rule's index in its `rules`; without a rule, where the ruleset is written.
 */
export type RuleLocator = (ruleset: number, rule?: number, part?: RulePart) => SourceLocation | undefined;

/** Knows no places (a snapshot object, a configuration from the API). */
export const NOWHERE: RuleLocator = () => undefined;

/**
 * The rules' (and rulesets') places in a snapshot's JSON text: `rulesets[i].rules[j]` found by path in the parsed
 * tree. `root` is the path of the snapshot inside the document (empty for a snapshot file).
 */
export function jsonRuleLocator(text: string, file: string, root: ReadonlyArray<string | number> = []): RuleLocator {
  return jsonPathLocator(text, file, (ruleset, rule) => [...root, 'rulesets', ruleset, ...(rule === undefined ? [] : ['rules', rule])]);
}

/** The rules' places in a JSON document whose rules are not under `rulesets` (a vendor API response): `pathOf` gives each rule's JSON path (without a rule, its ruleset's). */
export function jsonPathLocator(text: string, file: string, pathOf: (ruleset: number, rule?: number) => Array<string | number>): RuleLocator {
  let tree: Node | undefined;
  let lineStarts: number[] | undefined;
  return (ruleset, rule) => {
    jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
    tree ??= jsonc.parseTree(text) ?? undefined;
    const node = tree && jsonc.findNodeAtLocation(tree, pathOf(ruleset, rule));
    if (node === undefined) return undefined;
    lineStarts ??= startsOfLines(text);
    const line = lastAtOrBefore(lineStarts, node.offset);
    return { file, line: line + 1, column: node.offset - lineStarts[line]! + 1 };
  };
}

function startsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The index of the last start at or before `offset` (starts ascending, starts[0] = 0). */
function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
