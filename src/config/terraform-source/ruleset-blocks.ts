// The rulesets written in one .tf file, as the provider's schemas let them be written: each
// `resource "cloudflare_ruleset"` (and the v4 legacy `cloudflare_magic_firewall_ruleset`) with the
// items its rules come from, in the order of the file — a `rules { … }` block (provider v4), an
// object of `rules = [{ … }, …]` (v5 and the legacy resource), a `dynamic "rules"` block or a
// `[for … : { … }]` (each gives as many rules as its collection has items), or a value edgesim
// cannot read (`rules = var.rules`, a function call: any number of rules). Each item keeps the
// place of its `expression` attribute. The `module` blocks are read too, for their `source`.
import { rangeOf, type HclNode, type SourceRange } from './hcl-parser.js';
import { templateString, type TemplateString } from './template-strings.js';

/** The resource types whose rules edgesim reads (as the Terraform reader does). */
export const RULESET_TYPES: readonly string[] = ['cloudflare_ruleset', 'cloudflare_magic_firewall_ruleset'];

/** An `expression` attribute of a rule. */
export interface ExpressionAttribute {
  /** the attribute, `expression = …` */
  range: SourceRange;
  /** its value */
  valueRange: SourceRange;
  /** the value when it is a string (quoted or heredoc); absent for another expression (`local.x`, a function call) */
  string?: TemplateString;
}

/**
 * Where rules come from: `block` a `rules { … }` block; `element` an item of a `rules = [ … ]` list;
 * `dynamic` a `dynamic "rules"` block and `for` a `[for … : { … }]` list, each giving a rule per item of
 * its collection; `opaque` a `rules` value edgesim cannot read, giving any number of rules.
 */
export type RuleItemKind = 'block' | 'element' | 'dynamic' | 'for' | 'opaque';

export interface RuleItem {
  kind: RuleItemKind;
  /** the block, the object, or (opaque) the `rules` attribute */
  range: SourceRange;
  expression?: ExpressionAttribute;
}

export interface RulesetResource {
  type: string;
  name: string;
  /** the resource block */
  range: SourceRange;
  /** whether the block has `for_each` or `count` (its instances share its rules' places) */
  repeated: boolean;
  rules: RuleItem[];
}

/** A `module "NAME" { source = "…" }` block. */
export interface ModuleCall {
  name: string;
  /** the source when it is a plain string */
  source?: string;
  range: SourceRange;
}

export interface TerraformFileContents {
  resources: RulesetResource[];
  modules: ModuleCall[];
}

const named = (node: HclNode, type: string): HclNode[] => node.namedChildren.filter((c): c is HclNode => c !== null && c.type === type);
const identifier = (node: HclNode): string | undefined => named(node, 'identifier')[0]?.text;

/** A block's labels (`resource "TYPE" "NAME"`), as strings. */
function labels(block: HclNode): string[] {
  return named(block, 'string_lit').map((s) => named(s, 'template_literal')[0]?.text ?? '');
}

/** The attributes and blocks of a block's body. */
function bodyItems(block: HclNode): HclNode[] {
  const body = named(block, 'body')[0];
  return body === undefined ? [] : body.namedChildren.filter((c): c is HclNode => c !== null);
}

function expressionOf(attribute: HclNode, value: HclNode, text: string): ExpressionAttribute {
  const string = templateString(value, text);
  return { range: rangeOf(attribute), valueRange: rangeOf(value), ...(string === undefined ? {} : { string }) };
}

/** The `expression` attribute of a block's body. */
function blockExpression(block: HclNode, text: string): ExpressionAttribute | undefined {
  const attribute = bodyItems(block).find((c) => c.type === 'attribute' && identifier(c) === 'expression');
  const value = attribute === undefined ? undefined : named(attribute, 'expression')[0];
  return attribute === undefined || value === undefined ? undefined : expressionOf(attribute, value, text);
}

/** The inner node of an `expression` node when it is exactly one node of `type` (a tuple, an object, a for expression). */
function only(expression: HclNode | undefined, ...path: string[]): HclNode | undefined {
  let node = expression;
  for (const type of path) {
    if (node === undefined || node.namedChildCount !== 1 || node.namedChildren[0]?.type !== type) return undefined;
    node = node.namedChildren[0];
  }
  return node;
}

/** The key of an object element as a name: `expression` or `"expression"`. */
function keyName(element: HclNode): string | undefined {
  const key = element.childForFieldName('key');
  if (key === null) return undefined;
  const variable = only(key, 'variable_expr');
  if (variable !== undefined) return variable.text;
  const literal = only(key, 'literal_value', 'string_lit');
  return literal === undefined ? undefined : named(literal, 'template_literal')[0]?.text ?? '';
}

/** The `expression` element of an object `{ … }`. */
function objectExpression(object: HclNode, text: string): ExpressionAttribute | undefined {
  const element = named(object, 'object_elem').find((e) => keyName(e) === 'expression');
  const value = element?.childForFieldName('val') ?? undefined;
  return element === undefined || value === undefined ? undefined : expressionOf(element, value, text);
}

/** The items of a `rules = …` attribute. */
function attributeItems(attribute: HclNode, text: string): RuleItem[] {
  const value = named(attribute, 'expression')[0];
  const tuple = only(value, 'collection_value', 'tuple');
  if (tuple !== undefined) {
    return named(tuple, 'expression').map((element) => {
      const object = only(element, 'collection_value', 'object');
      const expression = object === undefined ? undefined : objectExpression(object, text);
      return { kind: 'element', range: rangeOf(object ?? element), ...(expression === undefined ? {} : { expression }) };
    });
  }
  const loop = only(value, 'for_expr', 'for_tuple_expr');
  if (loop !== undefined) {
    // [for x in xs : TEMPLATE] or [for x in xs : TEMPLATE if COND]: the template is the expression after the intro
    const template = named(loop, 'expression')[0];
    const object = only(template, 'collection_value', 'object');
    const expression = object === undefined ? undefined : objectExpression(object, text);
    return [{ kind: 'for', range: rangeOf(loop), ...(expression === undefined ? {} : { expression }) }];
  }
  return [{ kind: 'opaque', range: rangeOf(attribute) }];
}

function rulesetOf(block: HclNode, type: string, name: string, text: string): RulesetResource {
  const rules: RuleItem[] = [];
  let repeated = false;
  for (const item of bodyItems(block)) {
    const key = identifier(item);
    if (item.type === 'attribute') {
      if (key === 'for_each' || key === 'count') repeated = true;
      if (key === 'rules') rules.push(...attributeItems(item, text));
    } else if (item.type === 'block' && key === 'rules') {
      const expression = blockExpression(item, text);
      rules.push({ kind: 'block', range: rangeOf(item), ...(expression === undefined ? {} : { expression }) });
    } else if (item.type === 'block' && key === 'dynamic' && labels(item)[0] === 'rules') {
      const content = bodyItems(item).find((c) => c.type === 'block' && identifier(c) === 'content');
      const expression = content === undefined ? undefined : blockExpression(content, text);
      rules.push({ kind: 'dynamic', range: rangeOf(item), ...(expression === undefined ? {} : { expression }) });
    }
  }
  return { type, name, range: rangeOf(block), repeated, rules };
}

/**
 * The top-level blocks of a tree: those of the file's body and, inside a block the parser could
 * not read whole, the blocks its error recovery nested there (a missing `}` makes the next
 * resource a child of the broken one).
 */
function topBlocks(root: HclNode): HclNode[] {
  const blocks: HclNode[] = [];
  const visit = (items: HclNode[]): void => {
    for (const b of items.filter((c) => c.type === 'block')) {
      blocks.push(b);
      if (b.hasError) visit(bodyItems(b));
    }
  };
  visit(bodyItems(root));
  return blocks;
}

/** The rulesets and module calls of a .tf file's tree. */
export function terraformFileContents(root: HclNode, text: string): TerraformFileContents {
  const resources: RulesetResource[] = [];
  const modules: ModuleCall[] = [];
  for (const block of topBlocks(root)) {
    const kind = identifier(block);
    const [first, second] = labels(block);
    if (kind === 'resource' && first !== undefined && second !== undefined && RULESET_TYPES.includes(first)) resources.push(rulesetOf(block, first, second, text));
    if (kind === 'module' && first !== undefined) {
      const source = bodyItems(block).find((c) => c.type === 'attribute' && identifier(c) === 'source');
      const value = source === undefined ? undefined : named(source, 'expression')[0];
      const string = value === undefined ? undefined : templateString(value, text);
      modules.push({ name: first, ...(string?.value === undefined ? {} : { source: string.value }), range: rangeOf(block) });
    }
  }
  return { resources, modules };
}
