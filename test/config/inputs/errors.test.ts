// Inputs that cannot be read as they are: each is one error line naming the file and the place in
// the user's terms (a Terraform address and rule, a key of the vendor's response, a YAML line), never
// a guess: a Terraform JSON format of another major version, two root rulesets for the phase, an
// expression a plan knows only after apply, the same resource in two files.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration, type ConfigurationInput } from '../../../src/config/inputs/index.js';
import { UserError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const dir = tempDir('edgesim-inputs-');
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));

function file(name: string, content: string | object): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return p;
}

async function errorOf(...inputs: ConfigurationInput[]): Promise<string> {
  try {
    await readConfiguration(inputs);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

const v5 = (): any => fixture('terraform-v5-state.json');
const mtOf = (state: any): any => state.values.root_module.child_modules[0].resources.find((r: any) => r.address === 'module.fw.cloudflare_ruleset.mt');

describe('Terraform JSON', () => {
  it('refuses a format_version of another major version, in one line', async () => {
    const p = file('v2.json', { ...v5(), format_version: '2.0' });
    expect(await errorOf({ file: p })).toBe(`${p}: Terraform JSON format_version "2.0" is not one edgesim reads (1.x)`);
  });

  it('reads any 1.x format_version', async () => {
    const p = file('v1-9.json', { ...v5(), format_version: '1.9' });
    expect((await readConfiguration([{ file: p }])).snapshot.rulesets).toHaveLength(1);
  });

  it('refuses two root rulesets for the phase, naming both addresses', async () => {
    const state = v5();
    const second = { ...structuredClone(mtOf(state)), address: 'cloudflare_ruleset.other', name: 'other' };
    state.values.root_module.resources.push(second);
    const p = file('two.json', state);
    expect(await errorOf({ file: p })).toBe(`${p}: two root rulesets for phase magic_transit: cloudflare_ruleset.other and module.fw.cloudflare_ruleset.mt (an account has one entry point)`);
  });

  it('refuses a ruleset and a legacy ruleset together, naming both', async () => {
    const state = v5();
    state.values.root_module.resources.push(...fixture('terraform-legacy-state.json').values.root_module.resources.filter((r: any) => r.type === 'cloudflare_magic_firewall_ruleset'));
    const p = file('legacy-and-new.json', state);
    expect(await errorOf({ file: p })).toMatch(/^[^\n]*: two root rulesets for phase magic_transit: cloudflare_magic_firewall_ruleset\.legacy and module\.fw\.cloudflare_ruleset\.mt /);
  });

  it("refuses a rule whose expression a plan knows only after apply, naming the address and the rule's position", async () => {
    const plan = fixture('terraform-v5-plan.json');
    const change = plan.resource_changes.find((c: any) => c.type === 'cloudflare_ruleset');
    change.change.after_unknown.rules[3].expression = true;
    delete change.change.after.rules[3].expression;
    delete plan.planned_values.root_module.child_modules[0].resources[1].values.rules[3].expression;
    const p = file('unknown.json', plan);
    const message = `${p}: module.fw.cloudflare_ruleset.mt rules[3]: the expression is known only after apply (it depends on another resource); edgesim does not guess it`;
    expect(await errorOf({ file: p })).toBe(message);
    expect(await errorOf({ file: p, plan: 'after' })).toBe(message);
    expect((await readConfiguration([{ file: p, plan: 'before' }])).snapshot.rulesets?.[0]?.rules).toHaveLength(10);
  });

  it('names the address, the rule and its ref in a validation error', async () => {
    const state = v5();
    mtOf(state).values.rules[7].expression = 'tcp.dstport == 22 and ip.src in { 10.0.0.0/8 ';
    const p = file('bad-expression.json', state);
    expect(await errorOf({ file: p })).toMatch(new RegExp(`^${p.replace(/[.]/g, '\\.')}: module\\.fw\\.cloudflare_ruleset\\.mt rules\\[7\\] \\(ref ssh-from-office\\)\\.expression: Filter parsing error`));
  });

  it('--plan on a state is one line', async () => {
    const p = path.join(FIXTURES, 'terraform-v5-state.json');
    expect(await errorOf({ file: p, plan: 'before' })).toBe(`${p}: --plan: not a Terraform plan (no resource_changes): give the output of terraform show -json PLANFILE`);
  });

  it('a cloudflare_list_item whose list_id names no list is one line naming it', async () => {
    const state = fixture('terraform-v4-state.json');
    state.values.root_module.resources = state.values.root_module.resources.filter((r: any) => r.type !== 'cloudflare_list');
    const p = file('orphan-item.json', state);
    expect(await errorOf({ file: p })).toMatch(/: cloudflare_list_item\.partner_0: list_id "[0-9a-f]{32}" is not the id of a cloudflare_list in this file$/);
  });
});

describe('several files', () => {
  it('refuses the same resource in two files, naming both', async () => {
    const a = path.join(FIXTURES, 'terraform-v5-state.json');
    const b = path.join(FIXTURES, 'demo-atp-lists.json');
    expect(await errorOf({ file: a }, { file: b })).toBe(`lists is given in both ${a} and ${b}: give each resource in one file`);
  });

  it("a list one file's rules use and no file defines is refused, naming the file of the rules", async () => {
    const a = path.join(FIXTURES, 'vendor-entrypoint.json');
    const b = path.join(FIXTURES, 'demo-atp.json');
    expect(await errorOf({ file: a }, { file: b })).toMatch(new RegExp(`^${a.replace(/[.]/g, '\\.')}: result\\.rules\\[0\\]\\.expression: .*partners`));
  });
});

describe('the vendor API JSON and octorules YAML', () => {
  it("an error in the vendor's response is at the response's own path", async () => {
    const response = fixture('vendor-entrypoint.json');
    response.result.rules[2].action = 'allow';
    const p = file('vendor-bad.json', response);
    expect(await errorOf({ file: p })).toMatch(new RegExp(`^${p.replace(/[.]/g, '\\.')}: result\\.rules\\[2\\]\\.action: `));
  });

  it('an API error response is said as one', async () => {
    const p = file('vendor-error.json', { result: null, success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [] });
    expect(await errorOf({ file: p })).toBe(`${p}: an API error response, not a configuration: Authentication error`);
  });

  it('an octorules error names the key path', async () => {
    const text = readFileSync(path.join(FIXTURES, 'octorules-account.yaml'), 'utf8').replace('action: log', 'action: count');
    const p = file('octo.yaml', text);
    expect(await errorOf({ file: p })).toMatch(new RegExp(`^${p.replace(/[.]/g, '\\.')}: network_firewall_rules\\[2\\]\\.action: `));
  });
});
