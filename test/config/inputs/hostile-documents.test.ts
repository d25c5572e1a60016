// Documents written to mislead a reader, in every format --config takes: each is one error line
// naming the file and the place, never a value read from the wrong copy, a prototype, or a stack
// overflow. The JSON formats share config/json.ts parseJson; octorules YAML has its parser's errors.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration } from '../../../src/config/inputs/index.js';
import { UserError } from '../../../src/errors.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const dir = tempDir('edgesim-hostile-documents-');
const text = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function errorOf(p: string): Promise<string> {
  try {
    await readConfiguration([{ file: p }]);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('duplicate keys', () => {
  it('a rule with its expression given twice is refused at the second copy (the analysis would read it, the locator the first)', async () => {
    const snapshot = readFileSync('examples/demo-snapshot.json', 'utf8').replace('"expression": "ip.src in $partners"', '"expression": "ip.src in $partners", "expression": "tcp.dstport == 1"');
    expect(snapshot).toContain('"expression": "tcp.dstport == 1"');
    const p = file('twice.json', snapshot);
    expect(await errorOf(p)).toMatch(new RegExp(`^${p}: duplicate key "expression" at line \\d+, column \\d+ \\(first at line \\d+, column \\d+\\): a key may be given once in an object$`));
  });

  it('in a Terraform state and a vendor response as well', async () => {
    const state = text('terraform-v5-state.json').replace('"format_version": "1.0"', '"format_version": "1.0", "format_version": "1.0"');
    expect(state).toContain('"format_version": "1.0", "format_version"');
    expect(await errorOf(file('tf-twice.json', state))).toMatch(/: duplicate key "format_version" at line 2, /);
    const vendor = text('vendor-entrypoint.json').replace('"phase":', '"phase": "magic_transit", "phase":');
    expect(await errorOf(file('vendor-twice.json', vendor))).toMatch(/: duplicate key "phase" at line /);
  });
});

describe('__proto__', () => {
  it('a Terraform list item {"__proto__": {"ip": "0.0.0.0/0"}} is refused, not read as 0.0.0.0/0', async () => {
    const state = text('terraform-v4-state.json');
    const at = state.indexOf('"ip": "192.0.2.0/24",', state.indexOf('"type": "cloudflare_list_item"'));
    const hostile = `${state.slice(0, at)}"__proto__": {"ip": "0.0.0.0/0"},${state.slice(at + '"ip": "192.0.2.0/24",'.length)}`;
    const p = file('tf-proto.json', hostile);
    expect(await errorOf(p)).toMatch(new RegExp(`^${p}: a key named "__proto__" at line \\d+, column \\d+: not a key of this document`));
  });
});

describe('nesting', () => {
  const n = 20_000;
  it('a vendor response of 100,000 nested arrays and a Terraform state of 20,000 nested child modules are one line each', async () => {
    const vendor = file('vendor-deep.json', `{"result": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(await errorOf(vendor)).toBe(`${vendor}: nested deeper than 512 levels at line 1, column 523: not a document edgesim reads`);
    const open = Array.from({ length: n }, (_, i) => `{"address": "module.m${i}", "resources": [], "child_modules": [`).join('');
    const deep = text('terraform-v5-state.json').replace('"root_module": {', `"root_module": {"child_modules": [${open}${']}'.repeat(n)}], `);
    const terraform = file('tf-deep.json', deep);
    expect(await errorOf(terraform)).toMatch(new RegExp(`^${terraform}: nested deeper than 512 levels at line \\d+, column \\d+: not a document edgesim reads$`));
    const r = runCli(['lint', vendor]);
    expect([r.status, r.stderr]).toEqual([2, `edgesim: ${vendor}: nested deeper than 512 levels at line 1, column 523: not a document edgesim reads\n`]);
  });
});

describe('octorules YAML that does not parse', () => {
  it('is named as the YAML error at its line, not as invalid JSON at line 1', async () => {
    const broken = text('octorules-account.yaml').replace(/\n(\s+)expression: (.*)\n/, '\n$1expression: [$2\n');
    const p = file('broken.yaml', broken);
    expect(await errorOf(p)).toMatch(new RegExp(`^${p}: invalid YAML at line \\d+, column \\d+: `));
    const tabs = file('tabs.yaml', 'network_firewall_rules:\n\t- ref: x\n');
    expect(await errorOf(tabs)).toBe(`${tabs}: invalid YAML at line 2, column 1: Tabs are not allowed as indentation`);
    const notYaml = file('garbage.txt', 'garbage');
    expect(await errorOf(notYaml)).toMatch(/: invalid JSON at line 1, column 1: /);
  });
});
