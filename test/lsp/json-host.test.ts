// Expressions in JSON as the language server finds them (src/lsp/hosts/json.ts): which strings are
// expressions (a string under an `expression` key, nothing else), a file an editor holds half-typed,
// with comments or a trailing comma (still read, no syntax error for what JSONC allows), where each rule
// is (its object's range, for symbols and quick fixes), and text written back into a JSON string
// (completion and quick fixes write JSON's escapes).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expressionProblems } from '../../src/lsp/check/expressions.js';
import { readDocument } from '../../src/lsp/document.js';
import { completionsAt } from '../../src/lsp/features/completion.js';
import { jsonRange, readJson } from '../../src/lsp/hosts/json.js';

const VENDOR = readFileSync(path.join(import.meta.dirname, '../config/inputs/fixtures/vendor-entrypoint.json'), 'utf8');

describe('a JSON document in the editor', () => {
  it('finds the vendor response\'s rule expressions, each at its string, with no syntax error', () => {
    const doc = readJson(VENDOR);
    expect(doc.errors).toEqual([]);
    const rules = (JSON.parse(VENDOR) as { result: { rules: Array<{ expression: string }> } }).result.rules;
    expect(doc.expressions.map((e) => e.value)).toEqual(rules.map((r) => r.expression));
    doc.expressions.forEach((e, i) => {
      expect(e.owner).toEqual(['result', 'rules', i]);
      expect(JSON.parse(VENDOR.slice(e.start, e.end))).toBe(e.value);
    });
  });

  it('reads comments and a trailing comma as an editor\'s JSONC has them: no syntax error, every expression found', () => {
    const text = [
      '{',
      '  // the edge firewall',
      '  "rulesets": [{',
      '    "name": "fw",',
      '    "rules": [',
      '      /* ssh from anywhere */',
      '      {"ref": "ssh", "action": "block", "expression": "tcp.dstport == 22"},',
      '      {"ref": "telnet", "action": "block", "expression": "tcp.dstport == 23",},',
      '    ],',
      '  }],',
      '}',
    ].join('\n');
    const doc = readJson(text);
    expect(doc.errors).toEqual([]);
    expect(readDocument('file:///fw.json', 'json', 1, text).problems).toEqual([]);
    expect(doc.expressions.map((e) => [e.value, e.owner])).toEqual([
      ['tcp.dstport == 22', ['rulesets', 0, 'rules', 0]],
      ['tcp.dstport == 23', ['rulesets', 0, 'rules', 1]],
    ]);
  });

  it('takes only a string under an `expression` key: not a number there, not the word in a list (a JSON schema\'s `required`)', () => {
    const schema = JSON.stringify({ type: 'object', required: ['expression', 'action'], properties: { expression: { type: 'string', description: 'ip.src == 10.0.0.1' } } }, null, 2);
    expect(readJson(schema).expressions).toEqual([]);
    const text = JSON.stringify({ rulesets: [{ rules: [{ ref: 'a', expression: 22 }, { ref: 'b', expression: ['tcp.dstport == 22'] }, { ref: 'c', expression: 'tcp.dstport == 22' }] }] });
    expect(readJson(text).expressions.map((e) => e.owner)).toEqual([['rulesets', 0, 'rules', 2]]);
  });

  it('still finds the expressions of a half-typed file, around a key with no value yet', () => {
    for (const typing of ['"expression"', '"expression":', '"expression": ']) {
      const text = `{"rulesets": [{"rules": [{"action": "block", ${typing}}, {"ref": "ssh", "expression": "tcp.dstport == 22"}]}]}`;
      const doc = readJson(text);
      expect(doc.errors.length, typing).toBeGreaterThan(0);
      expect(doc.expressions.map((e) => [e.value, e.owner]), typing).toEqual([['tcp.dstport == 22', ['rulesets', 0, 'rules', 1]]]);
    }
  });

  it('an empty or blank file: nothing found, no rule placed', () => {
    for (const text of ['', '   \n']) {
      const doc = readJson(text);
      expect(doc.root).toBeUndefined();
      expect(doc.expressions).toEqual([]);
      expect(jsonRange(doc, ['rulesets', 0, 'rules', 0])).toBeUndefined();
      expect(readDocument('file:///empty.json', 'json', 1, text).rules).toEqual([]);
    }
  });

  it('places each rule at its whole object (what symbols and a dead rule\'s removal cover), and nothing at a path it lacks', () => {
    const doc = readJson(VENDOR);
    const parsed = JSON.parse(VENDOR) as { result: { rules: unknown[] } };
    parsed.result.rules.forEach((rule, i) => {
      const r = jsonRange(doc, ['result', 'rules', i]);
      expect(r).toBeDefined();
      expect(VENDOR[r![0]]).toBe('{');
      expect(VENDOR[r![1] - 1]).toBe('}');
      expect(JSON.parse(VENDOR.slice(r![0], r![1]))).toEqual(rule);
    });
    expect(jsonRange(doc, ['result', 'rules', parsed.result.rules.length])).toBeUndefined();
    expect(jsonRange(doc, ['rulesets'])).toBeUndefined();
    const model = readDocument('file:///vendor.json', 'json', 1, VENDOR);
    expect(model.rules.map((r) => VENDOR.slice(r.start, r.end))).toEqual(parsed.result.rules.map((_, i) => VENDOR.slice(...jsonRange(doc, ['result', 'rules', i])!)));
    expect(model.rules[0]!.name).toBe('allow-partners');
  });

  it('writes completion in JSON\'s escapes: a quoted value inside the string is \\"udp\\"', () => {
    const text = JSON.stringify({ rulesets: [{ rules: [{ ref: 'r', action: 'block', expression: 'ip.proto == ' }] }] });
    const offset = text.indexOf('ip.proto == ') + 'ip.proto == '.length;
    const model = readDocument('file:///c.json', 'json', 1, text);
    const udp = completionsAt(model, offset).find((c) => c.label === '"udp"');
    expect(udp?.text).toBe('\\"udp\\"');
    const e = model.expressions[0]!;
    expect(e.encode('a "b" \\ é\n')).toBe('a \\"b\\" \\\\ é\\n');
  });

  it('puts the engine\'s error on the characters that write it, escapes included', () => {
    const text = '{"rulesets": [{"rules": [{"ref": "r", "expression": "ip.proto == \\"tcp\\" and tcp.dp\\u006frt == 22"}]}]}';
    const [e] = readJson(text).expressions;
    expect(e!.value).toBe('ip.proto == "tcp" and tcp.dport == 22');
    const error = expressionProblems(e!).find((p) => p.severity === 'error')!;
    expect(text.slice(error.start, error.end)).toBe('tcp.dp\\u006frt');
  });
});
