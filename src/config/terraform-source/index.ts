// Terraform's own files (.tf, HCL) read for where things are written in them: the rulesets and
// their rules with exact ranges (terraformFileContents), the expression strings of their rules
// (ruleExpressions: what an editor's language server checks), and the places of a plan's or a
// state's rules in them (terraformSourceLocator: what findings point at). The parser is
// tree-sitter's HCL grammar (hcl-parser.ts), loaded on first use.
import { firstSyntaxError, readHcl, type SourceRange } from './hcl-parser.js';
import { terraformFileContents, type RuleItemKind, type TerraformFileContents } from './ruleset-blocks.js';
import type { TemplateString } from './template-strings.js';

export type { SourcePosition, SourceRange } from './hcl-parser.js';
export type { TemplateString } from './template-strings.js';
export { RULESET_TYPES, type ExpressionAttribute, type ModuleCall, type RuleItem, type RuleItemKind, type RulesetResource, type TerraformFileContents } from './ruleset-blocks.js';
export { terraformSourceLocator, type TerraformJson, type TerraformSourcePlaces } from './locator.js';
export { alignRules } from './align.js';
export { parseAddress, type ResourceAddress } from './addresses.js';

/** A .tf file's rulesets and module calls, and its first syntax error (the rest of the file is still read). */
export function readTerraformFile(text: string): Promise<TerraformFileContents & { syntaxError?: SourceRange }> {
  return readHcl(text, (root) => {
    const error = firstSyntaxError(root);
    return { ...terraformFileContents(root, text), ...(error === undefined ? {} : { syntaxError: error }) };
  });
}

/** The string an `expression` attribute of a rule holds, and where. */
export interface RuleExpression extends TemplateString {
  /** the resource, `cloudflare_ruleset.NAME` */
  resource: string;
  /** the rule item's index among the resource's (in the order of the file) and its kind */
  item: number;
  itemKind: RuleItemKind;
  /** the whole attribute, `expression = …` */
  attributeRange: SourceRange;
}

/**
 * Every `expression` of a ruleset's rules in a .tf file that is a string (quoted or heredoc), with
 * its exact range, its value where it has no interpolation, and whether it has `${…}` or `%{…}`
 * (an expression that is not a string, such as `local.x`, is not listed).
 */
export async function ruleExpressions(text: string): Promise<RuleExpression[]> {
  const { resources } = await readTerraformFile(text);
  return resources.flatMap((r) =>
    r.rules.flatMap((item, i) => {
      const string = item.expression?.string;
      return string === undefined ? [] : [{ ...string, resource: `${r.type}.${r.name}`, item: i, itemKind: item.kind, attributeRange: item.expression!.range }];
    }),
  );
}
