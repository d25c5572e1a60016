// The TextMate grammars of the extension, made from edgesim's own definitions so they cannot drift:
// the fields from the field registry, the functions from the firewall scheme (dist/, built by tsc).
// - source.edgesim-rules: a `.rules` file, one expression a line, `#` comments;
// - injections into JSON and YAML strings under an `expression` key, and into HCL (Terraform)
//   `expression = "…"` attributes and heredocs: the expression inside them is coloured as in a
//   `.rules` file (an HCL `${…}` interpolation is left as HCL colours it).
import { FIELD_REGISTRY } from '../../dist/field-registry.js';
import { FIREWALL_SCHEME } from '../../dist/lang/index.js';

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The patterns of an expression, for the rules file and every injection. */
function expressionRepository() {
  const fields = FIELD_REGISTRY.map((f) => f.name).sort((a, b) => b.length - a.length);
  const functions = FIREWALL_SCHEME.functionNames();
  return {
    expression: {
      patterns: [
        { include: '#string' },
        { include: '#list' },
        { name: 'support.function.edgesim', match: `\\b(?:${functions.map(escape).join('|')}|any|all)(?=\\s*\\()` },
        { name: 'variable.other.field.edgesim', match: `(?<![\\w.$])(?:${fields.map(escape).join('|')})(?![\\w.])` },
        { name: 'keyword.operator.logical.edgesim', match: '\\b(?:and|or|xor|not)\\b|&&|\\|\\||\\^\\^|!(?!=)' },
        { name: 'keyword.operator.comparison.edgesim', match: '\\b(?:in|contains|matches|strict wildcard|wildcard|eq|ne|lt|le|gt|ge|bitwise_and)\\b|==|!=|<=|>=|<|>|~|&' },
        { name: 'constant.numeric.address.edgesim', match: '\\b\\d{1,3}(?:\\.\\d{1,3}){3}(?:/\\d{1,2})?\\b|(?<![\\w:])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?:/\\d{1,3})?(?![\\w:])' },
        { name: 'constant.numeric.bytes.edgesim', match: '\\b[0-9a-fA-F]{2}(?:[:.-][0-9a-fA-F]{2})+\\b' },
        { name: 'constant.numeric.edgesim', match: '\\b(?:0x[0-9a-fA-F]+|\\d+)(?:\\.\\.(?:0x[0-9a-fA-F]+|\\d+))?\\b' },
        { name: 'constant.language.boolean.edgesim', match: '\\b(?:true|false)\\b' },
        { name: 'punctuation.section.set.edgesim', match: '[{}]' },
        { name: 'punctuation.section.group.edgesim', match: '[()\\[\\]]' },
      ],
    },
    string: {
      patterns: [
        { name: 'string.quoted.raw.edgesim', begin: 'r(#*)"', end: '"\\1' },
        { name: 'string.quoted.double.edgesim', begin: '"', end: '"', patterns: [{ name: 'constant.character.escape.edgesim', match: '\\\\.' }] },
      ],
    },
    list: { name: 'variable.other.list.edgesim', match: '\\$[A-Za-z_][\\w.]*' },
  };
}

/** source.edgesim-rules, for `.rules` files. */
export function rulesGrammar() {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Rules language (edgesim)',
    scopeName: 'source.edgesim-rules',
    patterns: [{ name: 'comment.line.number-sign.edgesim', match: '^\\s*#.*$' }, { include: '#expression' }],
    repository: expressionRepository(),
  };
}

/**
 * An expression inside a host's string: JSON's and YAML's double quotes escape `"` as `\"` and HCL's
 * too, so inside them the expression's own strings are delimited by `\"`.
 */
function escapedRepository() {
  const base = expressionRepository();
  return {
    ...base,
    string: {
      patterns: [
        { name: 'string.quoted.double.edgesim', begin: '\\\\"', end: '\\\\"', patterns: [{ name: 'constant.character.escape.edgesim', match: '\\\\\\\\.' }] },
        { name: 'constant.character.escape.json', match: '\\\\(?:u[0-9a-fA-F]{4}|.)' },
      ],
    },
  };
}

export function jsonInjection() {
  return {
    scopeName: 'edgesim.injection.json',
    injectionSelector: 'L:source.json meta.structure.dictionary.json -string -comment',
    patterns: [
      {
        begin: '("expression")\\s*(:)\\s*(")',
        beginCaptures: { 1: { name: 'support.type.property-name.json' }, 2: { name: 'punctuation.separator.dictionary.key-value.json' }, 3: { name: 'string.quoted.double.json punctuation.definition.string.begin.json' } },
        end: '(")',
        endCaptures: { 1: { name: 'string.quoted.double.json punctuation.definition.string.end.json' } },
        contentName: 'meta.embedded.expression.edgesim',
        patterns: [{ include: '#expression' }],
      },
    ],
    repository: escapedRepository(),
  };
}

export function yamlInjection() {
  const key = '^(\\s*(?:-\\s+)?)(expression)\\s*(:)';
  const captures = { 2: { name: 'entity.name.tag.yaml' }, 3: { name: 'punctuation.separator.key-value.mapping.yaml' } };
  return {
    scopeName: 'edgesim.injection.yaml',
    injectionSelector: 'L:source.yaml -comment',
    patterns: [
      { begin: `${key}\\s*(")`, beginCaptures: { ...captures, 4: { name: 'punctuation.definition.string.begin.yaml' } }, end: '"', endCaptures: { 0: { name: 'punctuation.definition.string.end.yaml' } }, contentName: 'meta.embedded.expression.edgesim', patterns: [{ include: '#escaped' }] },
      { begin: `${key}\\s*(')`, beginCaptures: { ...captures, 4: { name: 'punctuation.definition.string.begin.yaml' } }, end: "'(?!')", contentName: 'meta.embedded.expression.edgesim', patterns: [{ include: '#expression' }] },
      { begin: `${key}\\s*([|>][-+0-9]*)\\s*$`, beginCaptures: captures, while: '^(?=\\1\\s+\\S|\\s*$)', contentName: 'meta.embedded.expression.edgesim', patterns: [{ include: '#expression' }] },
      { begin: `${key}\\s+(?=[^\\s#'"|>])`, beginCaptures: captures, end: '(?=\\s#|$)', contentName: 'meta.embedded.expression.edgesim', patterns: [{ include: '#expression' }] },
    ],
    repository: { ...expressionRepository(), escaped: { patterns: escapedRepository().string.patterns.concat([{ include: '#expression' }]) } },
  };
}

export function hclInjection() {
  return {
    scopeName: 'edgesim.injection.hcl',
    injectionSelector: 'L:source.hcl -comment, L:source.terraform -comment',
    patterns: [
      {
        begin: '\\b(expression)\\s*(=)\\s*(")',
        beginCaptures: { 1: { name: 'variable.other.readwrite.hcl' }, 2: { name: 'keyword.operator.assignment.hcl' }, 3: { name: 'punctuation.definition.string.begin.hcl' } },
        end: '"',
        contentName: 'meta.embedded.expression.edgesim',
        patterns: [{ name: 'meta.interpolation.hcl', begin: '\\$\\{', end: '\\}' }, { include: '#escaped' }],
      },
      {
        begin: '\\b(expression)\\s*(=)\\s*<<-?\\s*([A-Za-z_][\\w-]*)\\s*$',
        beginCaptures: { 1: { name: 'variable.other.readwrite.hcl' }, 2: { name: 'keyword.operator.assignment.hcl' }, 3: { name: 'keyword.control.heredoc.hcl' } },
        end: '^\\s*(\\3)\\s*$',
        endCaptures: { 1: { name: 'keyword.control.heredoc.hcl' } },
        contentName: 'meta.embedded.expression.edgesim',
        patterns: [{ name: 'meta.interpolation.hcl', begin: '\\$\\{', end: '\\}' }, { include: '#expression' }],
      },
    ],
    repository: { ...expressionRepository(), escaped: { patterns: escapedRepository().string.patterns.concat([{ include: '#expression' }]) } },
  };
}

/** Every grammar file of the extension: path under editors/vscode/ → grammar. */
export function grammars() {
  return {
    'syntaxes/rules.tmLanguage.json': rulesGrammar(),
    'syntaxes/json-injection.tmLanguage.json': jsonInjection(),
    'syntaxes/yaml-injection.tmLanguage.json': yamlInjection(),
    'syntaxes/hcl-injection.tmLanguage.json': hclInjection(),
  };
}
