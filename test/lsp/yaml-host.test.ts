// Expressions in YAML as the language server finds them (src/lsp/hosts/yaml.ts): octorules account
// files and suites, each scalar under an `expression` key in every way YAML writes one (plain and
// quoted scalars folded across lines, double-quoted escapes, escaped line breaks, literal and folded
// blocks with their chomping and indentation indicators, a tag or an anchor before a block), its value
// as YAML reads it, and under each of its characters the source character that writes it: what an
// error's squiggle covers. Where the mapping cannot rebuild the value (a half-typed escape) the
// expression says so and its ranges cover the whole scalar. Text written back in each style's own
// way (completion and quick fixes), and the rules' places.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expressionProblems } from '../../src/lsp/check/expressions.js';
import { readDocument } from '../../src/lsp/document.js';
import { completionsAt } from '../../src/lsp/features/completion.js';
import { readYaml, yamlRange } from '../../src/lsp/hosts/yaml.js';

const ACCOUNT = readFileSync(path.join(import.meta.dirname, '../config/inputs/fixtures/real-world/octorules/account.yaml'), 'utf8');

/** The one expression of `text`, its value, and the source character under each of its characters (and under its end). */
function mapped(text: string): { value: string; under: string; inexact: string | null } {
  const [e] = readYaml(text).expressions;
  expect(e, text).toBeDefined();
  return { value: e!.value, under: Array.from({ length: e!.value.length + 1 }, (_, i) => text[e!.at(i)] ?? '∅').join(''), inexact: e!.inexact };
}

const rule = (lines: string[]) => ['network_firewall_rules:', '  - ref: r', ...lines, '    action: block', ''].join('\n');

describe('expressions in an octorules account file', () => {
  it('finds every rule\'s expression with its owner, at its scalar, positions exact', () => {
    const doc = readYaml(ACCOUNT);
    expect(doc.expressions.map((e) => [e.owner, e.value])).toEqual([
      [['network_ddos_rules', 0], 'tcp.flags.syn and not tcp.flags.ack'],
      [['network_firewall_rules', 0], 'ip.proto eq "tcp" and tcp.dstport in {23 3389}'],
      [['network_firewall_rules', 1], '(ip.src in $blocked_ips)'],
      [['network_firewall_managed', 0], 'ip.proto eq "udp" and udp.dstport eq 53'],
      [['network_firewall_ratelimit', 0], 'ip.proto eq "tcp" and tcp.dstport eq 443'],
      [['network_firewall_ids', 0], 'ip.proto eq "icmp"'],
    ]);
    for (const e of doc.expressions) {
      expect(e.inexact).toBeNull();
      expect(e.kind).toBe('rule');
      expect(ACCOUNT.slice(e.start, e.end)).toMatch(/^["'(]/);
      expect(ACCOUNT.slice(e.at(0), e.at(e.value.length))).toBe(e.value);
    }
  });

  it('places each rule at its map (symbols, a dead rule\'s removal), and nothing at a path it lacks', () => {
    const doc = readYaml(ACCOUNT);
    const r = yamlRange(doc, ['network_firewall_rules', 1])!;
    expect(ACCOUNT.slice(r[0], r[1])).toBe('ref: block-bad-ips\n    description: Block IPs from blocklist\n    action: block\n    expression: (ip.src in $blocked_ips)\n');
    expect(yamlRange(doc, ['network_firewall_rules', 2])).toBeUndefined();
    expect(yamlRange(doc, ['network_firewall_rules', 0, 'nothing'])).toBeUndefined();
    const model = readDocument('file:///account.yaml', 'yaml', 1, ACCOUNT);
    expect(model.rules.map((x) => x.name)).toEqual(['l4-syn-flood', 'l4-block-mgmt-ports', 'block-bad-ips', 'l4-log-dns', 'l4-ratelimit-https', 'l4-log-icmp']);
    expect([model.rules[2]!.start, model.rules[2]!.end]).toEqual(r);
  });

  it('takes only a string under an `expression` key, in maps and sequences at any depth (a suite\'s inline configuration, ATP filters)', () => {
    const text = [
      'config:',
      '  rulesets:',
      '    - name: fw',
      '      rules:',
      '        - {ref: a, expression: 22}',
      '        - {ref: b, expression: true}',
      '        - {ref: c, expression: [tcp.dstport == 22]}',
      '        - {ref: d, expression: {x: y}}',
      '        - {ref: e, expression: }',
      '        - {ref: f, expression: tcp.dstport == 22}',
      '  syn_protection:',
      '    filters:',
      '      - expression: tcp.dstport == 443',
      '        mode: enabled',
      '? [complex, key]',
      ': expression',
      'cases: []',
      '',
    ].join('\n');
    const doc = readYaml(text);
    expect(doc.expressions.map((e) => [e.owner, e.value, e.kind])).toEqual([
      [['config', 'rulesets', 0, 'rules', 5], 'tcp.dstport == 22', 'rule'],
      [['config', 'syn_protection', 'filters', 0], 'tcp.dstport == 443', 'filter'],
    ]);
  });
});

describe('each character of a YAML expression under the source character that writes it', () => {
  it('double-quoted: every escape YAML has, each character under its backslash', () => {
    const text = rule(['    expression: "\\0\\a\\b\\t\\\t\\n\\v\\f\\r\\e\\ \\"\\/\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600 ok"']);
    const m = mapped(text);
    expect(m.inexact).toBeNull();
    expect(m.value).toBe('\0\x07\b\t\t\n\v\f\r\x1b "/\\\u0085\u00a0\u2028\u2029Aé😀 ok');
    // 😀 is two UTF-16 units, both under its escape; the end is the closing quote
    expect(m.under).toBe(`${'\\'.repeat(22)} ok"`);
    const [e] = readYaml(text).expressions;
    const escapes = ['\\0', '\\a', '\\b', '\\t', '\\\t', '\\n', '\\v', '\\f', '\\r', '\\e', '\\ ', '\\"', '\\/', '\\\\', '\\N', '\\_', '\\L', '\\P', '\\x41', '\\u00e9'];
    escapes.forEach((esc, i) => expect(text.slice(e!.at(i), e!.at(i + 1))).toBe(esc));
    expect(text.slice(e!.at(20), e!.at(22))).toBe('\\U0001F600');
  });

  it('double-quoted across lines: a break folds to a space, an empty line to a line feed, an escaped break joins with nothing', () => {
    const m = mapped(rule(['    expression: "ip.src in { 10.0.0.0/8 }  ', '      and tcp.dst\\', '      port == 22', '', '      or \\x41"']));
    expect(m).toEqual({ value: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22\nor A', under: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22\nor \\"', inexact: null });
    // blanks before an escaped break are kept (they are before the backslash)
    expect(mapped(rule(['    expression: "a  \\', '      b"']))).toEqual({ value: 'a  b', under: 'a  b"', inexact: null });
  });

  it('single-quoted: a doubled quote is one quote, under the first of the two; lines fold', () => {
    const m = mapped(rule(["    expression: 'ip.proto == ''tcp''", '      and', '', '', "      tcp.dstport == 22'"]));
    expect(m).toEqual({ value: "ip.proto == 'tcp' and\n\ntcp.dstport == 22", under: "ip.proto == 'tcp'\nand\n\ntcp.dstport == 22'", inexact: null });
  });

  it('plain: lines fold, trailing blanks dropped (the space under the first of them), empty lines kept as line feeds, CRLF too', () => {
    const m = mapped(rule(['    expression: ip.src in { 10.0.0.0/8 }   ', '      and tcp.dstport == 22', '', '', '      or udp.dstport == 53']));
    expect(m).toEqual({ value: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22\n\nor udp.dstport == 53', under: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22\n\nor udp.dstport == 53\n', inexact: null });
    const crlf = mapped(rule(['    expression: ip.src in { 10.0.0.0/8 }', '      and tcp.dstport == 22']).replace(/\n/g, '\r\n'));
    expect(crlf).toEqual({ value: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22', under: 'ip.src in { 10.0.0.0/8 }\rand tcp.dstport == 22\r', inexact: null });
    // in a flow map too
    expect(mapped('network_firewall_rules:\n  - {ref: x, expression: tcp.dstport == 22\n      and ip.proto == "tcp", action: block}\n')).toEqual({ value: 'tcp.dstport == 22 and ip.proto == "tcp"', under: 'tcp.dstport == 22\nand ip.proto == "tcp",', inexact: null });
  });

  it('literal blocks: clip, strip and keep chomping, leading empty lines, more-indented lines, an explicit indentation', () => {
    expect(mapped(rule(['    expression: |', '      tcp.dstport == 22', '        and ip.proto == "tcp"', '']))).toEqual({ value: 'tcp.dstport == 22\n  and ip.proto == "tcp"\n', under: 'tcp.dstport == 22\n  and ip.proto == "tcp"\n\n', inexact: null });
    expect(mapped(rule(['    expression: |-', '      tcp.dstport == 22', '      and ip.proto == "tcp"', '']))).toEqual({ value: 'tcp.dstport == 22\nand ip.proto == "tcp"', under: 'tcp.dstport == 22\nand ip.proto == "tcp"\n', inexact: null });
    expect(mapped(rule(['    expression: |+', '', '      tcp.dstport == 22', '', '']))).toEqual({ value: '\ntcp.dstport == 22\n\n\n', under: '\ntcp.dstport == 22\n\n\n ', inexact: null });
    expect(mapped(rule(['    expression: |2-', '       tcp.dstport == 22', '      or udp.dstport == 53']))).toEqual({ value: ' tcp.dstport == 22\nor udp.dstport == 53', under: ' tcp.dstport == 22\nor udp.dstport == 53 ', inexact: null });
  });

  it('folded blocks: lines fold to spaces, an empty line is a line feed, more-indented lines keep their breaks', () => {
    expect(mapped(rule(['    expression: >-', '      ip.src in { 10.0.0.0/8 }', '      and tcp.dstport == 22', '', '      or udp.dstport == 53', '        and udp.srcport == 53', '      or icmp']))).toEqual({
      value: 'ip.src in { 10.0.0.0/8 } and tcp.dstport == 22\nor udp.dstport == 53\n  and udp.srcport == 53\nor icmp',
      under: 'ip.src in { 10.0.0.0/8 }\nand tcp.dstport == 22\nor udp.dstport == 53\n  and udp.srcport == 53\nor icmp ',
      inexact: null,
    });
    expect(mapped(rule(['    expression: >', '', '      icmp', '', '', '      or udp']))).toEqual({ value: '\nicmp\n\nor udp\n', under: '\nicmp\n\nor udp\n ', inexact: null });
  });

  it('a block after a tag or an anchor, and a header with a comment', () => {
    expect(mapped(rule(['    expression: !!str |-', '      tcp.dstport == 22', '      or icmp']))).toEqual({ value: 'tcp.dstport == 22\nor icmp', under: 'tcp.dstport == 22\nor icmp ', inexact: null });
    expect(mapped(rule(['    expression: &ssh >', '      tcp.dstport == 22', '      or icmp']))).toEqual({ value: 'tcp.dstport == 22 or icmp\n', under: 'tcp.dstport == 22\nor icmp\n ', inexact: null });
    expect(mapped(rule(['    expression: |- # ssh', '      tcp.dstport == 22']))).toEqual({ value: 'tcp.dstport == 22', under: 'tcp.dstport == 22 ', inexact: null });
  });

  it('lines at the edges: a quoted scalar opening or closing on a line of its own, blanks and tabs around breaks, escapes next to a break', () => {
    // the break after the opening quote folds to a space (under the break); one before the closing quote too
    expect(mapped(rule(['    expression: "', '      tcp.dstport == 22"']))).toEqual({ value: ' tcp.dstport == 22', under: '\ntcp.dstport == 22"', inexact: null });
    expect(mapped(rule(['    expression: "tcp.dstport == 22', '      "']))).toEqual({ value: 'tcp.dstport == 22 ', under: 'tcp.dstport == 22\n"', inexact: null });
    // blanks and a tab around a break are dropped; the space is under the first trailing blank
    expect(mapped(rule(["    expression: 'tcp.dstport == 22  ", "      \tand icmp'"]))).toEqual({ value: 'tcp.dstport == 22 and icmp', under: "tcp.dstport == 22 and icmp'", inexact: null });
    // an escaped tab before a break is kept, and an escaped quote before an escaped break
    expect(mapped(rule(['    expression: "a \\t', '      b"']))).toEqual({ value: 'a \t b', under: 'a \\\nb"', inexact: null });
    expect(mapped(rule(['    expression: "a\\"b\\', '      c"']))).toEqual({ value: 'a"bc', under: 'a\\bc"', inexact: null });
  });

  it('blocks at the edges: a line of blanks past the indentation, keep chomping of a folded block, an indentation indicator, CRLF, no content', () => {
    expect(mapped(rule(['    expression: |', '      a', '         ', '      b', '', '']))).toEqual({ value: 'a\n   \nb\n', under: 'a\n   \nb\n\n', inexact: null });
    expect(mapped(rule(['    expression: >+', '      a', '      b', '', '']))).toEqual({ value: 'a b\n\n\n', under: 'a\nb\n\n\n ', inexact: null });
    expect(mapped(rule(['    expression: >1', '      a', '     b']))).toEqual({ value: ' a\nb\n', under: ' a\nb\n ', inexact: null });
    expect(mapped(rule(['    expression: >', '      a', '        b', '      c']))).toEqual({ value: 'a\n  b\nc\n', under: 'a\n  b\nc\n ', inexact: null });
    expect(mapped(rule(['    expression: >-', '      a', '', '', '      b']))).toEqual({ value: 'a\n\nb', under: 'a\n\nb ', inexact: null });
    expect(mapped(rule(['    expression: |-', '      a', '      b']).replace(/\n/g, '\r\n'))).toEqual({ value: 'a\nb', under: 'a\rb ', inexact: null });
    expect(mapped(rule(['    expression: |', '']))).toEqual({ value: '', under: ' ', inexact: null });
  });

  it('characters that are only special in another style: leading blanks of a quoted scalar, a doubled quote outside single quotes, backslashes outside double quotes, an escape YAML does not have', () => {
    expect(mapped(rule(['    expression: "  tcp.dstport == 22"']))).toEqual({ value: '  tcp.dstport == 22', under: '  tcp.dstport == 22"', inexact: null });
    expect(mapped(rule(['    expression: "http.host == \'\'"']))).toEqual({ value: "http.host == ''", under: "http.host == ''\"", inexact: null });
    expect(mapped(rule(["    expression: http.host == ''"]))).toEqual({ value: "http.host == ''", under: "http.host == ''\n", inexact: null });
    expect(mapped(rule(['    expression: http.request.uri.path matches "^/a\\d+\\x41"']))).toEqual({ value: 'http.request.uri.path matches "^/a\\d+\\x41"', under: 'http.request.uri.path matches "^/a\\d+\\x41"\n', inexact: null });
    expect(mapped(rule(["    expression: 'http.request.uri.path matches \"\\n\"'"]))).toEqual({ value: 'http.request.uri.path matches "\\n"', under: 'http.request.uri.path matches "\\n"\'', inexact: null });
    // `\d` is no YAML escape: the backslash stays, each character under itself
    expect(mapped(rule(['    expression: "http.request.uri.path matches \\"^/\\d+\\""']))).toEqual({ value: 'http.request.uri.path matches "^/\\d+"', under: 'http.request.uri.path matches \\^/\\d+\\"', inexact: null });
  });

  it('blocks whose lines are odd: the file ends without a line break, a leading line of blanks, a line of blanks inside a folded block', () => {
    expect(mapped(['network_firewall_rules:', '  - ref: r', '    expression: |-', '      tcp.dstport == 22', '      or icmp'].join('\n'))).toEqual({ value: 'tcp.dstport == 22\nor icmp', under: 'tcp.dstport == 22\nor icmp∅', inexact: null });
    expect(mapped(rule(['    expression: |', '  ', '      tcp.dstport == 22']))).toEqual({ value: '\ntcp.dstport == 22\n', under: '\ntcp.dstport == 22\n ', inexact: null });
    expect(mapped(rule(['    expression: >', '      tcp.dstport == 22', '    ', '      or icmp']))).toEqual({ value: 'tcp.dstport == 22\nor icmp\n', under: 'tcp.dstport == 22\nor icmp\n ', inexact: null });
  });

  it('a tag with no value yet: an empty expression, said not to be mapped', () => {
    const [e] = readYaml(rule(['    expression: !!str'])).expressions;
    expect(e!.value).toBe('');
    expect(e!.inexact).toBe('the positions inside this plain scalar are not mapped: ranges cover the whole value');
  });

  it('a half-typed escape: not mapped, said so, and the error covers the whole scalar', () => {
    const text = rule(['    expression: "tcp.dstport == 22 and \\x4"']);
    const [e] = readYaml(text).expressions;
    expect(e!.inexact).toBe('the positions inside this quote double scalar are not mapped: ranges cover the whole value');
    const problems = expressionProblems(e!);
    // the scalar and the line break that ends it
    const whole = '"tcp.dstport == 22 and \\x4"\n';
    expect(problems.map((p) => [p.code, text.slice(p.start, p.end)])).toEqual([['positions', whole], ...problems.slice(1).map((p) => [p.code, whole])]);
    expect(problems.length).toBeGreaterThan(1);
  });

  it('puts the engine\'s error on the characters that write it, in a folded plain scalar and in a block', () => {
    const plain = rule(['    expression: ip.src in { 10.0.0.0/8 }', '      and tcp.dport == 22']);
    const block = rule(['    expression: |-', '      ip.src in { 10.0.0.0/8 }', '      and tcp.dport == 22']);
    for (const text of [plain, block]) {
      const [e] = readYaml(text).expressions;
      const error = expressionProblems(e!).find((p) => p.severity === 'error')!;
      expect(text.slice(error.start, error.end)).toBe('tcp.dport');
    }
  });
});

describe('the document\'s own problems', () => {
  it('a key written twice is no syntax error (both expressions are checked); a syntax error is the parser\'s first line', () => {
    const twice = rule(['    expression: tcp.dstport == 22', '    expression: tcp.dstport == 23']);
    expect(readYaml(twice).doc.errors).toEqual([]);
    const model = readDocument('file:///a.yaml', 'yaml', 1, twice);
    expect(model.problems).toEqual([]);
    expect(model.expressions.map((e) => e.value)).toEqual(['tcp.dstport == 22', 'tcp.dstport == 23']);
    const open = 'network_firewall_rules:\n  - ref: a\n    expression: "tcp.dstport == 22\n';
    expect(readDocument('file:///b.yaml', 'yaml', 1, open).problems).toEqual([{ start: open.length, end: open.length + 1, message: 'YAML: Missing closing "quote' }]);
  });
});

describe('text written back into a YAML scalar (completion, quick fixes)', () => {
  it('in each style\'s own way, or not at all where it would change the scalar', () => {
    const text = rule([
      '    expression: "ip.proto == "',
      '  - expression: \'ip.proto == \'',
      '  - expression: ip.proto ==',
      '  - expression: |-',
      '      ip.proto ==',
      '  - expression: >-',
      '      ip.proto ==',
    ]);
    const [dq, sq, plain, literal, folded] = readYaml(text).expressions;
    expect([dq, sq, plain, literal, folded].map((e) => e!.encode('a "b" \'c\' \\'))).toEqual(['a \\"b\\" \'c\' \\\\', 'a "b" \'\'c\'\' \\', 'a "b" \'c\' \\', 'a "b" \'c\' \\', 'a "b" \'c\' \\']);
    expect([dq, sq, plain, literal, folded].map((e) => e!.encode('a\nb'))).toEqual(['a\\nb', null, null, null, null]);
    expect(plain!.encode('a: b')).toBeNull();
    expect(plain!.encode('a #b')).toBeNull();
    expect(plain!.encode('a:b a# b')).toBe('a:b a# b');
    // a block takes `: ` and ` #` as they are
    expect([literal, folded].map((e) => e!.encode('a: b #c'))).toEqual(['a: b #c', 'a: b #c']);
    const model = readDocument('file:///r.yaml', 'yaml', 1, text);
    const udp = (e: typeof dq) => completionsAt(model, e!.at(e!.value.length)).find((c) => c.label === '"udp"')?.text;
    expect([dq, sq, plain, literal, folded].map(udp)).toEqual(['\\"udp\\"', '"udp"', '"udp"', '"udp"', '"udp"']);
  });
});
