// Expressions in Terraform's own files as the language server finds them (src/lsp/hosts/hcl.ts), read
// in this process (the HCL reader is WebAssembly, asynchronous): each rule's `expression` of a
// cloudflare_ruleset (quoted, a heredoc, a `<<-` heredoc), its value as Terraform reads it with each
// character at the place of the file that writes it, the engine's errors placed there; a string with
// `${…}` and an expression that is no string said to be Terraform's to compute; the rules as the
// outline lists them; the file's syntax error; and text written back into the string in HCL's own
// escapes (completion, quick fixes). test/lsp/terraform.test.ts asks the built server the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expressionProblems } from '../../src/lsp/check/expressions.js';
import { readHcl } from '../../src/lsp/document.js';
import { completionsAt } from '../../src/lsp/features/completion.js';
import { readHclDocument } from '../../src/lsp/hosts/hcl.js';
import { rulesetTf } from './terraform-fixture.js';
import { quoted } from '../config/terraform-source/quoted.js';

const TF = `${rulesetTf(`  rules {
    action      = "log"
    description = "no expression yet"
  }
  rules {
    action     = "block"
    expression = <<EOT
ip.src == 10.0.0.1 and http.host == "$\${not a template}"
EOT
  }
`)}
resource "cloudflare_magic_firewall_ruleset" "legacy" {
  account_id = var.account_id
  name       = "legacy"
  rules = [
    {
      action      = "block"
      expression  = "udp.dstport == 53"
      description = "no DNS"
      enabled     = "true"
    },
  ]
}
`;

const NOT_A_STRING = 'not checked: the expression is not a string here (a reference or a function call), so Terraform computes it';
const INTERPOLATED = 'not checked: the string holds ${…} or %{…}, so Terraform computes its value';

const ruleset = (expression: string) => `resource "cloudflare_ruleset" "fw" {\n  phase = "magic_transit"\n  rules {\n    action     = "block"\n    expression = ${expression}\n  }\n}\n`;

/** Text like an expression's: words, operators, quotes, backslashes, `${` and `%{`, blanks, non-ASCII, control characters. */
const valueText = fc
  .array(fc.oneof(fc.constantFrom('ip.src', ' ', '==', '"tcp"', '\\', '{', '}', '${', '%{', '$', '%', '10.0.0.0/8', 'é', '😀', '\t', '\n', '\r', "'", '#'), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.join(''))
  // (not a `$` or `%` before a `${` or `%{`: the grammar cannot read `$$${` or `%%%{`, see test/config/terraform-source/strings.test.ts)
  .filter((v) => !/[$%][$%]\{/.test(v));

describe('a .tf file read for its expressions', () => {
  it('finds each rule\'s expression as Terraform reads it, at the string that writes it, owned by its rule', async () => {
    const doc = await readHclDocument(TF);
    expect(doc.syntaxError).toBeUndefined();
    expect(doc.expressions.map((e) => [e.owner, e.value, e.uncheckable, TF.slice(e.start, e.end)])).toEqual([
      [['cloudflare_ruleset.mt', 'rules', 0], 'ip.proto == "tcp" and tcp.dport == 22', null, '"ip.proto == \\"tcp\\" and tcp.dport == 22"'],
      [['cloudflare_ruleset.mt', 'rules', 1], 'tcp.dstport in { 23 2323 }\n  and ip.src in { 10.0.0.0/33 }\n', null, '<<-EOT\n      tcp.dstport in { 23 2323 }\n        and ip.src in { 10.0.0.0/33 }\n    EOT'],
      [['cloudflare_ruleset.mt', 'rules', 2], 'tcp.dstport == ', INTERPOLATED, '"tcp.dstport == ${var.port}"'],
      [['cloudflare_ruleset.mt', 'rules', 3], '', NOT_A_STRING, 'local.icmp'],
      [['cloudflare_ruleset.mt', 'rules', 4], 'ip.proto == ', null, '"ip.proto == "'],
      [['cloudflare_ruleset.mt', 'rules', 6], 'ip.src == 10.0.0.1 and http.host == "${not a template}"\n', null, '<<EOT\nip.src == 10.0.0.1 and http.host == "$${not a template}"\nEOT'],
      [['cloudflare_magic_firewall_ruleset.legacy', 'rules', 0], 'udp.dstport == 53', null, '"udp.dstport == 53"'],
    ]);
    expect(doc.expressions.map((e) => e.kind)).toEqual(Array(7).fill('rule'));
    // positions are exact for every string Terraform's value is known of, and cover the whole of the others
    expect(doc.expressions.map((e) => e.inexact)).toEqual([null, null, INTERPOLATED, NOT_A_STRING, null, null, null]);
  });

  it('lists every rule, with its name and the range of its block, as the outline shows it', async () => {
    const doc = await readHclDocument(TF);
    expect(doc.items.map((i) => [i.path, i.name])).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => [['cloudflare_ruleset.mt', 'rules', i], `cloudflare_ruleset.mt rules[${i}]`]),
      [['cloudflare_magic_firewall_ruleset.legacy', 'rules', 0], 'cloudflare_magic_firewall_ruleset.legacy rules[0]'],
    ]);
    for (const item of doc.items.slice(0, 7)) {
      expect(TF.slice(item.start, item.end)).toMatch(/^rules \{\n[\s\S]*\n {2}\}$/);
    }
    expect(TF.slice(doc.items[7]!.start, doc.items[7]!.end)).toMatch(/^\{\n\s+action {6}= "block"[\s\S]*enabled {5}= "true"\n\s+\}$/);
    const model = await readHcl('file:///main.tf', 1, TF);
    // the outline: the rules whose expression is checked
    expect(model.rules.map((r) => r.name)).toEqual(['cloudflare_ruleset.mt rules[0]', 'cloudflare_ruleset.mt rules[1]', 'cloudflare_ruleset.mt rules[4]', 'cloudflare_ruleset.mt rules[6]', 'cloudflare_magic_firewall_ruleset.legacy rules[0]']);
    expect(model.range(['cloudflare_ruleset.mt', 'rules', 5])).toEqual([doc.items[5]!.start, doc.items[5]!.end]);
  });

  it('puts each error on the characters of the file that write it, and says which strings are not checked', async () => {
    const doc = await readHclDocument(TF);
    const problems = doc.expressions.flatMap(expressionProblems);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => TF.slice(p.start, p.end))).toEqual(['tcp.dport', '10.0.0.0/33', ' ', 'http.host']);
    const notChecked = problems.filter((p) => p.code === 'not_checked');
    expect(notChecked.map((p) => [TF.slice(p.start, p.end), p.message])).toEqual([
      ['"tcp.dstport == ${var.port}"', INTERPOLATED],
      ['local.icmp', NOT_A_STRING],
    ]);
  });

  it('reports the first syntax error and still reads the rules around it', async () => {
    const text = TF.replace('resource "cloudflare_magic_firewall_ruleset"', 'locals {\n  x = ]\n}\n\nresource "cloudflare_magic_firewall_ruleset"');
    const doc = await readHclDocument(text);
    // where the reader found it: at the `]` (an empty range there; the server shows it as one character)
    const at = text.indexOf('x = ]') + 4;
    expect(doc.syntaxError).toEqual({ start: at, end: at });
    const { start, end } = doc.syntaxError!;
    expect(doc.expressions.map((e) => e.value)).toEqual((await readHclDocument(TF)).expressions.map((e) => e.value));
    expect((await readHcl('file:///bad.tf', 1, text)).problems.map((p) => [p.start, p.end, p.message])).toEqual([[start, end, 'HCL: a syntax error (the rest of the file is still read)']]);
  });

  it('maps each character of a quoted string\'s value to the character or escape that writes it', async () => {
    await fc.assert(
      fc.asyncProperty(valueText, async (value) => {
        const text = ruleset(`"${quoted(value)}"`);
        const [e] = (await readHclDocument(text)).expressions;
        expect(e!.value).toBe(value);
        expect(e!.inexact).toBeNull();
        for (let i = 0; i < value.length; i++) {
          const raw = text.slice(e!.at(i), e!.at(i + 1));
          // the source of this unit reads back as exactly it (an escape, a doubled `$`/`%` before `{`, or itself)
          expect(raw === value[i] || raw === `${value[i]}${value[i]}` || (raw.startsWith('\\') && JSON.parse(`"${raw.replace(/^\\u/, '\\u')}"`) === value[i]), `${JSON.stringify(text)} at ${i}: ${JSON.stringify(raw)}`).toBe(true);
        }
        expect(text[e!.at(value.length)]).toBe('"');
      }),
      { numRuns: 150 },
    );
  });

  it('maps each character of a `<<-` heredoc\'s value past the indentation its lines lose', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(valueText.map((v) => v.replace(/[\r\n]/g, ' ').trim()).filter((l) => l !== '' && !/[$%]\{/.test(l)), { minLength: 1, maxLength: 4 }), fc.nat(3), async (lines, extra) => {
        const pad = ' '.repeat(6);
        const body = lines.map((l, i) => `${pad}${i % 2 === 1 ? ' '.repeat(extra) : ''}${l}\n`).join('');
        const text = ruleset(`<<-EOT\n${body}    EOT`);
        const [e] = (await readHclDocument(text)).expressions;
        expect(e!.value).toBe(lines.map((l, i) => `${i % 2 === 1 ? ' '.repeat(extra) : ''}${l}\n`).join(''));
        for (let i = 0; i < e!.value.length; i++) expect(text[e!.at(i)], `${JSON.stringify(text)} at ${i}`).toBe(e!.value[i]);
      }),
      { numRuns: 100 },
    );
  });

  it('writes text back in the string\'s own escapes: quoted strings escape, heredocs only double `${` and `%{` and take no line break', async () => {
    const doc = await readHclDocument(TF);
    const quotedOne = doc.expressions[0]!;
    const heredoc = doc.expressions[1]!;
    expect(quotedOne.encode('a "b" \\ c\n\r\t ${x} %{y} $z')).toBe('a \\"b\\" \\\\ c\\n\\r\\t $${x} %%{y} $z');
    expect(heredoc.encode('a "b" \\ ${x} %{y} $z')).toBe('a "b" \\ $${x} %%{y} $z');
    expect(heredoc.encode('a\nb')).toBeNull();
    // what completion writes after `ip.proto == ` in the quoted string
    const model = await readHcl('file:///main.tf', 1, TF);
    const offset = TF.indexOf('"ip.proto == "') + '"ip.proto == '.length;
    expect(completionsAt(model, offset).find((c) => c.label === '"udp"')?.text).toBe('\\"udp\\"');
    // any text written back into a quoted string reads back as itself
    await fc.assert(
      fc.asyncProperty(valueText, async (value) => {
        const [e] = (await readHclDocument(ruleset(`"${quotedOne.encode(value)!}"`))).expressions;
        expect(e!.value).toBe(value);
      }),
      { numRuns: 100 },
    );
  });
});
