// Positions inside host strings: every character of an expression's value maps to where the host
// writes it (a JSON escape, a YAML quote or escape, a folded line), checked against what the host's
// own parser decodes at that place, over random values in every way JSON and YAML write a string.
import fc from 'fast-check';
import { Scalar, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/lsp/hosts/json.js';
import { readYaml } from '../../src/lsp/hosts/yaml.js';
import { readDocument } from '../../src/lsp/document.js';
import { patchDocument } from '../../src/lsp/patch.js';

/** Text like an expression's: words, operators, quotes, backslashes, blanks, non-ASCII, control characters. */
const valueText = fc
  .array(fc.oneof(fc.constantFrom('ip.src', ' ', '  ', '==', '"tcp"', '\\', '{', '}', '10.0.0.0/8', 'é', '€', '😀', '\t', '\n', "'", '#', ': ', 'and', '\u0001'), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

/** JSON's ways of writing a string: as JSON.stringify does, or with every character as \uXXXX, or mixed. */
function jsonWritings(value: string): string[] {
  const escaped = value.split('').map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const units = value.split('');
  const mixed = units.map((u, i) => (i % 2 === 0 ? `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(u).slice(1, -1))).join('');
  return [JSON.stringify(value), `"${escaped}"`, `"${mixed}"`];
}

describe('expressions in JSON', () => {
  it('maps each character of the value to the escape or character that writes it', () => {
    fc.assert(
      fc.property(valueText, (value) => {
        for (const written of jsonWritings(value)) {
          const text = `{"rulesets": [{"rules": [{"ref": "r", "expression": ${written}}]}]}`;
          const [e] = readJson(text).expressions;
          expect(e!.value).toBe(value);
          expect(e!.owner).toEqual(['rulesets', 0, 'rules', 0]);
          for (let i = 0; i < value.length; i++) {
            // the text from this unit's offset to the next decodes to exactly this unit
            const raw = text.slice(e!.at(i), e!.at(i + 1));
            expect(JSON.parse(`"${raw}"`)).toBe(value[i]);
          }
          expect(text[e!.at(value.length)]).toBe('"');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reads ATP filters with the filter scheme and rules with the firewall scheme', () => {
    const text = JSON.stringify({ syn_protection: { filters: [{ expression: 'tcp.dstport == 22', mode: 'enabled' }] }, rulesets: [{ rules: [{ expression: 'ip.proto == "tcp"' }] }] });
    expect(readJson(text).expressions.map((e) => [e.kind, e.owner])).toEqual([
      ['filter', ['syn_protection', 'filters', 0]],
      ['rule', ['rulesets', 0, 'rules', 0]],
    ]);
  });
});

const STYLES = [Scalar.PLAIN, Scalar.QUOTE_DOUBLE, Scalar.QUOTE_SINGLE, Scalar.BLOCK_LITERAL, Scalar.BLOCK_FOLDED] as const;

/** What a YAML source character may stand for in the value: itself, or (folding) a line break read as a space or a line feed, or an escape. */
function standsFor(source: string, at: number, unit: string): boolean {
  const c = source[at];
  if (c === unit) return true;
  if (c === '\n' || c === '\r') return unit === ' ' || unit === '\n';
  if (c === '\\') return true;
  if (c === "'" && unit === "'") return true;
  return false;
}

describe('expressions in YAML', () => {
  it('maps each character of a scalar in every style and folding to the source character that writes it, or says it cannot', () => {
    let exact = 0;
    let total = 0;
    fc.assert(
      fc.property(valueText, fc.constantFrom(...STYLES), fc.constantFrom(20, 40, 80), (value, style, lineWidth) => {
        const node = new Scalar(value);
        node.type = style;
        const text = stringify({ network_firewall_rules: [{ ref: 'r', expression: node }] }, { lineWidth, minContentWidth: 10 });
        const [e] = readYaml(text).expressions;
        // a few values the yaml package does not write back as they were (a lone blank as a folded block), or not as
        // YAML at all (a plain "-" before a line break reads as a sequence's dash: no expression): not the mapping's to answer
        fc.pre(e !== undefined && e.value === value);
        expect(e!.owner).toEqual(['network_firewall_rules', 0]);
        total++;
        if (e!.inexact !== null) {
          // reported, and every range then covers the whole scalar
          expect(e!.at(0)).toBe(e!.start);
          return;
        }
        exact++;
        for (let i = 0; i < value.length; i++) expect(standsFor(text, e!.at(i), value[i]!), `${JSON.stringify(text)} at ${i}`).toBe(true);
        for (let i = 1; i <= value.length; i++) expect(e!.at(i)).toBeGreaterThanOrEqual(e!.at(i - 1));
      }),
      { numRuns: 400 },
    );
    // the mapping rebuilds nearly every scalar the yaml package writes
    expect(exact / total).toBeGreaterThan(0.95);
  });

  it('maps a folded plain scalar, a literal block and a double-quoted escape exactly', () => {
    const text = ['network_firewall_rules:', '  - expression: ip.src in {10.0.0.0/8}', '      and tcp.dstport == 22', '    ref: a', '  - expression: |-', '      tcp.dstport == 22', '      and ip.proto == "tcp"', '  - expression: "tcp.dst\\u0070ort == 2\\', '      2"', ''].join('\n');
    const [a, b, c] = readYaml(text).expressions;
    expect(a!.value).toBe('ip.src in {10.0.0.0/8} and tcp.dstport == 22');
    expect(text.slice(a!.at(23), a!.at(26))).toBe('and');
    expect(text[a!.at(22)]).toBe('\n');
    expect(b!.value).toBe('tcp.dstport == 22\nand ip.proto == "tcp"');
    expect(text.slice(b!.at(18), b!.at(21))).toBe('and');
    expect(c!.value).toBe('tcp.dstport == 22');
    expect(text.slice(c!.at(7), c!.at(8))).toBe('\\u0070');
    expect(text.slice(c!.at(8), c!.at(9))).toBe('o');
    expect(text[c!.at(16)]).toBe('2');
  });
});

describe('documents', () => {
  it('tells a configuration from JSON and YAML that only hold expressions', () => {
    const kind = (uri: string, text: string) => readDocument(uri, '', 1, text).kind;
    expect(kind('file:///a.json', '{"rulesets": []}')).toBe('snapshot');
    expect(kind('file:///a.json', '{"result": {"phase": "magic_transit", "rules": []}}')).toBe('vendor');
    expect(kind('file:///a.json', '{"format_version": "1.0", "values": {}}')).toBe('terraform');
    expect(kind('file:///a.json', '{"name": "x", "expression": "ip.src == 1.1.1.1"}')).toBe('json');
    expect(kind('file:///a.yaml', 'network_firewall_rules: []')).toBe('octorules');
    expect(kind('file:///a.yaml', 'config: {rulesets: []}\ncases: []')).toBe('suite');
    expect(kind('file:///a.yaml', 'config: firewall.json\ncases: []')).toBe('yaml');
    expect(kind('file:///a.rules', 'tcp.dstport == 22')).toBe('rules');
  });

  it('reads a .rules file one expression a line, comments and blank lines left out', () => {
    const m = readDocument('file:///x.rules', '', 1, '# edgesim: capture=demo.pcap\n\ntcp.dstport == 22\r\n  # a note\nip.proto == "udp"\n');
    expect(m.expressions.map((e) => [e.value, e.owner])).toEqual([
      ['tcp.dstport == 22', [2]],
      ['ip.proto == "udp"', [4]],
    ]);
    expect(m.capture?.value).toBe('demo.pcap');
    expect(m.rules.map((r) => r.name)).toEqual(['line-3', 'line-5']);
  });
});

describe('a change inside one expression', () => {
  const sample = (expressions: string[]) =>
    JSON.stringify({ lists: [{ name: 'office', kind: 'ip', items: [{ ip: '10.0.0.0/8' }] }], rulesets: [{ name: 'fw', rules: expressions.map((expression, i) => ({ ref: `r${i}`, action: 'block', expression })) }] }, null, 2);

  /** Everything a feature reads of a model, for comparing a patched one with a fresh read. */
  const seen = (m: ReturnType<typeof readDocument>) => ({
    kind: m.kind,
    expressions: m.expressions.map((e) => ({ value: e.value, start: e.start, end: e.end, owner: e.owner, at: Array.from({ length: e.value.length + 1 }, (_, i) => e.at(i)) })),
    rules: m.rules.map((r) => ({ path: r.path, name: r.name, start: r.start, end: r.end, range: m.range(r.path) })),
    lists: m.lists,
  });

  it('gives the model a fresh read gives, in JSON and in .rules files, after any sequence of such changes', () => {
    let applied = 0;
    fc.assert(
      fc.property(
        fc.array(valueText, { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(3), fc.constantFrom('a', 'é', '\\\\', '\\n', 'x y', '😀', '\\u0041', '"')), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (values, edits, rulesFile) => {
          let text = rulesFile ? values.map((v) => v.replace(/\n/g, ' ').replace(/^\s*#/, 'x') || 'x').join('\n') : sample(values);
          const uri = rulesFile ? 'file:///p.rules' : 'file:///p.json';
          let model = readDocument(uri, '', 1, text);
          let version = 1;
          for (const [which, where, length, typed] of edits) {
            const e = model.expressions[which % model.expressions.length];
            if (e === undefined) return;
            // a change inside the string: after its opening quote, before its closing one
            const lo = rulesFile ? e.start : e.start + 1;
            const hi = rulesFile ? e.end : e.end - 1;
            const from = lo + (where % (hi - lo + 1));
            const to = Math.min(hi, from + length);
            text = text.slice(0, from) + typed + text.slice(to);
            version++;
            const patched = patchDocument(model, text, version);
            const fresh = readDocument(uri, '', version, text);
            if (patched !== undefined) {
              applied++;
              expect(seen(patched)).toEqual(seen(fresh));
            }
            model = patched ?? fresh;
          }
        },
      ),
      { numRuns: 300 },
    );
    // most such changes are patched, not read afresh (a typed quote or line break is read afresh)
    expect(applied).toBeGreaterThan(500);
  });
});

describe('a document the server cannot read as a configuration', () => {
  it('is plain YAML, not a failure: an alias bomb (its expressions are still checked)', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 6 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`), 'rules: [{expression: "tcp.dstport == 22"}]'].join('\n');
    const m = readDocument('file:///bomb.yaml', 'yaml', 1, bomb);
    expect(m.kind).toBe('yaml');
    expect(m.expressions.map((e) => e.value)).toEqual(['tcp.dstport == 22']);
  });
});
