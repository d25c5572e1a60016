// The two documents the language server reads that are not a `--config` format: a suite whose
// `config:` is written inline (checked as `edgesim test` checks it: a snapshot), and a `.rules`
// file, one expression a line, read as one ruleset whose every line is a block rule named after its
// line (`line-3`), so that lint says which lines can never match or are covered by earlier ones.
// Each is made into the shape the readers of src/config/inputs make, with its way back to the text.
import { isMap, type Node } from 'yaml';
import type { ConfigurationDocument } from '../../config/inputs/document.js';
import { readYamlDocument } from '../../config/inputs/octorules.js';
import type { JsonPath } from '../../config/schema.js';
import { UserError } from '../../errors.js';
import type { ExpressionKind } from '../../lang/index.js';

/** A `.rules` line that holds an expression: not blank, not a `#` comment. */
export function isExpressionLine(line: string): boolean {
  const t = line.trim();
  return t !== '' && !t.startsWith('#');
}

/** The lines of a text, each without its line break. */
export function textLines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

/** A `.rules` file as one ruleset of block rules, one a line; paths in the file are `[line index]`. */
export function rulesFileDocument(text: string, file: string, scheme: ExpressionKind): ConfigurationDocument {
  const lines: number[] = [];
  const rules: unknown[] = [];
  if (scheme === 'rule') {
    textLines(text).forEach((line, n) => {
      if (!isExpressionLine(line)) return;
      lines.push(n);
      rules.push({ ref: `line-${n + 1}`, action: 'block', expression: line });
    });
  }
  const origin = (path: JsonPath): JsonPath => {
    const [key, , sub, j, ...rest] = path;
    return key === 'rulesets' && sub === 'rules' && typeof j === 'number' ? [lines[j] ?? j, ...rest] : path;
  };
  return {
    document: rules.length === 0 ? {} : { rulesets: [{ name: 'rules', kind: 'root', phase: 'magic_transit', rules }] },
    origin,
    locate: (_ruleset, rule) => (rule === undefined || lines[rule] === undefined ? { file, line: 1, column: 1 } : { file, line: lines[rule] + 1, column: 1 }),
    notes: [],
  };
}

/** A suite's inline configuration (`config:` written as a map); paths in the file start at `config`. */
export function suiteConfigurationDocument(text: string, file: string): ConfigurationDocument {
  const { doc, lines } = readYamlDocument(text, file);
  const config = doc.get('config', true);
  if (!isMap(config)) throw new UserError('the suite names its configuration in a file: its rules are checked in that file', { source: file });
  return {
    document: config.toJSON(),
    origin: (path) => ['config', ...path],
    locate: (ruleset, rule) => {
      const node = doc.getIn(['config', 'rulesets', ruleset, ...(rule === undefined ? [] : ['rules', rule])], true) as Node | undefined;
      if (node?.range == null) return undefined;
      const { line, col } = lines.linePos(node.range[0]);
      return { file, line, column: col };
    },
    notes: [],
  };
}

/**
 * Terraform JSON's places, which its reader names by resource address (`module.fw.cloudflare_ruleset.mt
 * rules[3] (ref ssh)`), as paths of the document: the resource's object (in the state's values, or a
 * plan's planned values) and its `values.rules[3]`.
 */
export function terraformPaths(text: string): (path: JsonPath) => JsonPath {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return (p) => p;
  }
  const resources = new Map<string, JsonPath>();
  const walk = (node: unknown, at: JsonPath): void => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...at, i]));
    else if (typeof node === 'object' && node !== null) {
      const o = node as Record<string, unknown>;
      if (typeof o.address === 'string' && typeof o.values === 'object' && o.values !== null && !resources.has(o.address)) resources.set(o.address, at);
      // a resource's own values hold no resources
      for (const [k, v] of Object.entries(o)) if (k !== 'values' || typeof o.address !== 'string') walk(v, [...at, k]);
    }
  };
  walk(value, []);
  return (p) => {
    const m = typeof p[0] === 'string' ? /^(.+?)(?: rules\[(\d+)\])?(?: \(ref .*\))?$/.exec(p[0]) : null;
    const at = m === null ? undefined : resources.get(m[1]!);
    if (m === null || at === undefined) return p;
    return [...at, 'values', ...(m[2] === undefined ? [] : ['rules', Number(m[2])]), ...p.slice(1)];
  };
}
