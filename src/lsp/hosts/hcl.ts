// Expressions in Terraform's own files (.tf): the `expression` of every rule of a cloudflare_ruleset
// (and the legacy cloudflare_magic_firewall_ruleset), quoted or a heredoc, read by the HCL reader of
// src/config/terraform-source with the source offset of every character of its value (escapes, a
// `<<-` heredoc's indentation, `$${` for a literal `${`). A string holding `${…}` or `%{…}` is
// Terraform's to compute: it is reported as not checked, and so is an expression that is not a string
// (`local.rule`, a function call). The reader is WebAssembly and asynchronous: a .tf document is read
// apart from the others (server.ts awaits it).
import { readTerraformFile, type TemplateString } from '../../config/terraform-source/index.js';
import type { JsonPath } from '../../config/schema.js';
import { hosted, type HostedExpression } from './hosted.js';

export interface HclDocument {
  expressions: HostedExpression[];
  /** each rule item's path (`[resource, 'rules', i]`) with its range, for symbols and placing */
  items: Array<{ path: JsonPath; name: string; start: number; end: number }>;
  /** the file's first syntax error (the rest is still read) */
  syntaxError?: { start: number; end: number };
}

/** Text as a quoted HCL string writes it (or a heredoc: only `${` and `%{` need doubling there). */
function encoderFor(kind: TemplateString['kind']): (text: string) => string | null {
  const templates = (t: string) => t.replace(/([$%])\{/g, '$1$1{');
  if (kind === 'heredoc') return (t) => (t.includes('\n') ? null : templates(t));
  return (t) => templates(t.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t'));
}

const NOT_A_STRING = 'not checked: the expression is not a string here (a reference or a function call), so Terraform computes it';
const INTERPOLATED = 'not checked: the string holds ${…} or %{…}, so Terraform computes its value';

/** The expressions of the rulesets' rules in a .tf file. */
export async function readHclDocument(text: string): Promise<HclDocument> {
  const { resources, syntaxError } = await readTerraformFile(text);
  const expressions: HostedExpression[] = [];
  const items: HclDocument['items'] = [];
  for (const r of resources) {
    const resource = `${r.type}.${r.name}`;
    r.rules.forEach((item, i) => {
      const owner: JsonPath = [resource, 'rules', i];
      items.push({ path: owner, name: `${resource} rules[${i}]`, start: item.range.startOffset, end: item.range.endOffset });
      const attribute = item.expression;
      if (attribute === undefined) return;
      const string = attribute.string;
      const fields = { kind: 'rule' as const, owner };
      if (string === undefined) {
        expressions.push(hosted({ ...fields, value: '', start: attribute.valueRange.startOffset, end: attribute.valueRange.endOffset, uncheckable: NOT_A_STRING }, null, NOT_A_STRING));
        return;
      }
      const start = string.range.startOffset;
      const end = string.range.endOffset;
      if (string.value === undefined) {
        expressions.push(hosted({ ...fields, value: string.literals.join(''), start, end, uncheckable: INTERPOLATED }, null, INTERPOLATED));
        return;
      }
      const value = string.value;
      expressions.push(hosted({ ...fields, value, start, end, uncheckable: null, encode: encoderFor(string.kind) }, Array.from({ length: value.length + 1 }, (_, k) => string.sourceOffset(k))));
    });
  }
  return { expressions, items, ...(syntaxError === undefined ? {} : { syntaxError: { start: syntaxError.startOffset, end: syntaxError.endOffset } }) };
}
