// Terraform as people write it (issue 32, issue 34 item 9): the real-world fixtures under
// fixtures/real-world, written as `terraform show -json` writes the provider's examples, its
// acceptance tests, the vendor's suggested rulesets and public modules (each folder's README says
// where from), read without false changes, refused states or merged lists; octorules' own examples
// and the vendor SDK's bare ruleset likewise. Unknown values that decide packets are refused with
// their address, never guessed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration, type ConfigurationInput } from '../../../src/config/inputs/index.js';
import type { Snapshot } from '../../../src/config/snapshot.js';
import { UserError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { rendered } from './fixtures/real-world/write.js';

const HERE = path.join(import.meta.dirname, 'fixtures/real-world');
const at = (name: string): string => path.join(HERE, name);
const read = async (file: string, more: Partial<ConfigurationInput> = {}, account?: string) => readConfiguration([{ file: at(file), ...more }], { unknownLists: 'allow', account });

async function refusal(file: string, more: Partial<ConfigurationInput> = {}, account?: string): Promise<string> {
  try {
    await read(file, more, account);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
}

/** What decides packets: rules in order (name, action, expression, enabled, parameters) and lists with their items. */
function decisive(s: Snapshot): unknown {
  return {
    rules: s.rulesets?.flatMap((rs) => rs.rules?.map((r) => [r.ref, r.action, r.expression, r.enabled ?? true, r.action_parameters ?? null, r.logging ?? null])),
    lists: s.lists?.map((l) => [l.name, l.items?.map((i) => i.ip)]),
  };
}

describe('the fixtures are what their writer writes', () => {
  it('each file under fixtures/real-world equals write.ts output (npx tsx test/config/inputs/fixtures/real-world/write.ts rewrites them)', () => {
    for (const [file, text] of rendered()) expect(readFileSync(file, 'utf8'), path.relative(HERE, file)).toBe(text);
  });
});

describe('every attribute of the provider schema, as each era writes it', () => {
  it('the same configuration in v4 SDK-era state (zero values), v4 framework state and v5 state (nulls) reads as one snapshot', async () => {
    const v5 = await read('v5-pull-request/state.json');
    expect(decisive((await read('v4-pull-request/state.json')).snapshot)).toEqual(decisive(v5.snapshot));
    expect(decisive((await read('v4-sdk-pull-request/state.json')).snapshot)).toEqual(decisive(v5.snapshot));
    expect(v5.notes).toEqual([]);
  });

  it("a v4 SDK-era plan's two sides read as the v5 plan's", async () => {
    for (const plan of ['before', 'after'] as const) {
      expect(decisive((await read('v4-sdk-pull-request/plan.json', { plan })).snapshot)).toEqual(decisive((await read('v5-pull-request/plan.json', { plan })).snapshot));
    }
  });

  it('action parameters of another action are ignored: silently when empty (zero values, nulls), named in a note when set', async () => {
    const state = JSON.parse(readFileSync(at('v4-sdk-pull-request/state.json'), 'utf8'));
    const block = state.values.root_module.resources.find((r: any) => r.type === 'cloudflare_ruleset').values.rules[0];
    block.action_parameters = [{ ...state.values.root_module.resources.find((r: any) => r.type === 'cloudflare_ruleset').values.rules[3].action_parameters[0], ruleset: '', products: ['waf'] }];
    const file = path.join(tempDir('edgesim-params-'), 'state.json');
    writeFileSync(file, JSON.stringify(state));
    const { snapshot, notes } = await readConfiguration([{ file }], { unknownLists: 'allow' });
    expect(snapshot.rulesets![0]!.rules![0]!.action_parameters).toBeUndefined();
    expect(notes).toEqual(["action parameters that do not apply to the rule's action are ignored: cloudflare_ruleset.mt rules[0] (products on a block rule)"]);
  });
});

describe('rules without ref', () => {
  it("are named by their resource address and description in state, the same name as in the plan's after side", async () => {
    const state = await read('v5-pull-request/state.json');
    const after = await read('v5-pull-request/plan.json', { plan: 'after' });
    const names = (s: Snapshot): string[] => s.rulesets![0]!.rules!.map((r) => r.ref!);
    expect(names(state.snapshot)[0]).toBe('cloudflare_ruleset.mt: Single rule that blocks all traffic with UDP source ports which are used in att…');
    expect(names(after.snapshot).filter((n) => !names(state.snapshot).includes(n))).toEqual(['cloudflare_ruleset.mt: Allows HTTP/3 (QUIC) to the web servers']);
  });

  it('a rule the plan changes (a port removed, disabled) keeps its name; an added rule gets its own', async () => {
    const before = (await read('v5-pull-request/plan.json', { plan: 'before' })).snapshot.rulesets![0]!.rules!;
    const after = (await read('v5-pull-request/plan.json', { plan: 'after' })).snapshot.rulesets![0]!.rules!;
    expect(after.map((r) => before.findIndex((b) => b.ref === r.ref))).toEqual([0, 1, 2, 3, 4, -1, 5]);
    expect(after[3]!.expression).not.toBe(before[3]!.expression);
    expect([before[4]!.enabled ?? true, after[4]!.enabled]).toEqual([true, false]);
  });
});

describe('lists', () => {
  it('two lists created in the same plan never merge: each item is in the list its list_id refers to in the configuration', async () => {
    const { snapshot } = await read('v5-module-new-lists/plan.json', { plan: 'after' });
    expect(snapshot.lists?.map((l) => [l.name, l.items?.map((i) => i.ip)])).toEqual([
      ['blocked_a', ['192.0.2.1', '192.0.2.2']],
      ['blocked_b', ['198.51.100.7']],
    ]);
    // the planned configuration (config: plan.json in a suite) reads the same lists
    expect((await read('v5-module-new-lists/plan.json')).snapshot.lists).toEqual(snapshot.lists);
  });

  it('an item whose list cannot be resolved is an error naming its address', async () => {
    const plan = JSON.parse(readFileSync(at('v5-module-new-lists/plan.json'), 'utf8'));
    plan.configuration.root_module.module_calls.fw.module.resources.find((r: any) => r.address === 'cloudflare_list_item.b1').expressions.list_id = { references: ['var.list_id'] };
    const file = path.join(tempDir('edgesim-lists-'), 'plan.json');
    writeFileSync(file, JSON.stringify(plan));
    await expect(readConfiguration([{ file, plan: 'after' }])).rejects.toThrow(`${file}: module.fw.cloudflare_list_item.b1: its list_id is known only after apply and refers to no cloudflare_list in this file`);
  });

  it.each([
    ['v5 (inline items, cloudflare_list_item)', 'list-kinds/v5-state.json', ['1.1.1.1', '1.1.1.2', '1.1.1.3', '10.0.0.1'], []],
    ['v4 (item blocks; the example redirect item names the IP list)', 'list-kinds/v4-state.json', ['1.1.1.1', '1.1.1.2', '1.1.1.3', '192.0.2.0'], ['cloudflare_list_item.example_redirect_item: an item of an IP list without an ip (the API refuses it), left out']],
  ])('asn, hostname and redirect lists with their items are left out with one note: %s', async (_era, file, ips, more) => {
    const { snapshot, notes } = await read(file);
    expect(snapshot.lists?.map((l) => [l.name, l.items?.map((i) => i.ip)])).toEqual([['list1', ips]]);
    expect(notes).toEqual([
      'cloudflare_list.example_asn_list (asn), cloudflare_list.example_hostname_list (hostname), cloudflare_list.example_redirect_list (redirect): not IP lists, left out with their items (the network firewall matches IP lists)',
      ...more,
    ]);
  });

  it('octorules: an asn list is left out with a note; a file of lists only is detected as octorules', async () => {
    const account = await readConfiguration([{ file: at('octorules/account.yaml') }]);
    expect(account.snapshot.lists?.map((l) => l.name)).toEqual(['blocked_ips']);
    expect(account.notes).toContain('lists partner_asns (asn): not IP lists, left out (the network firewall matches IP lists)');
    const lists = await readConfiguration([{ file: at('octorules/lists-only.yaml') }]);
    expect(lists.snapshot).toEqual({ lists: [{ name: 'blocked_ips', kind: 'ip', description: 'Known bad IPs', items: [{ ip: '1.2.3.4', comment: 'Scanner' }] }] });
    expect(lists.notes).toEqual(['lists partner_asns (asn): not IP lists, left out (the network firewall matches IP lists)', 'no network_firewall_rules: in this file (the network firewall\'s rules); it holds lists']);
  });
});

describe('values a plan knows only after apply are refused with their address, never guessed', () => {
  it("a list's items (read as empty, its rule was called unmatchable)", async () => {
    expect(await refusal('unknown-values/items-unknown.json')).toBe(`${at('unknown-values/items-unknown.json')}: cloudflare_list.web_servers: its items are known only after apply (it depends on another resource); edgesim does not guess it`);
  });

  it("a rule's enabled (read as enabled)", async () => {
    expect(await refusal('unknown-values/enabled-unknown.json', { plan: 'after' })).toBe(`${at('unknown-values/enabled-unknown.json')}: cloudflare_ruleset.mt rules[4]: enabled is known only after apply (it depends on another resource); edgesim does not guess it`);
    // its before side is the state: known
    expect((await read('unknown-values/enabled-unknown.json', { plan: 'before' })).snapshot.rulesets).toHaveLength(1);
  });
});

describe('several accounts in one state (for_each)', () => {
  it('without --account: an error listing the accounts and their resource addresses', async () => {
    expect(await refusal('accounts-for-each/state.json')).toBe(
      `${at('accounts-for-each/state.json')}: the file holds 2 accounts: give --account ID to read one: 023e105f4ecef8ad9ca31a8372d0c353 (cloudflare_list.web_servers["prod"], cloudflare_ruleset.mt["prod"]); 9f1839b6152d298aca64c4e906b6d074 (cloudflare_list.web_servers["staging"], cloudflare_ruleset.mt["staging"])`,
    );
  });

  it('--account picks one: its root ruleset and its lists', async () => {
    const { snapshot } = await read('accounts-for-each/state.json', {}, '9f1839b6152d298aca64c4e906b6d074');
    expect(snapshot.rulesets?.map((r) => r.name)).toEqual(['magic transit staging']);
    expect(snapshot.lists?.map((l) => l.items?.map((i) => i.ip))).toEqual([['203.0.113.200']]);
    expect(await refusal('accounts-for-each/state.json', {}, 'nope')).toMatch(/: --account nope: no firewall ruleset or list of this account in the file; its accounts: 023e/);
  });
});

describe('what a file holds instead of a firewall', () => {
  it('the empty workspace {"format_version":"1.0"} is an empty configuration, with a warning', async () => {
    const { snapshot, notes } = await read('empty-workspace/state.json');
    expect(snapshot).toEqual({});
    expect(notes).toEqual(['no network-firewall ruleset (cloudflare_ruleset of phase magic_transit) in this state; it holds no resources at all (an empty workspace?)']);
  });

  it('the wrong workspace: a warning naming the phases and resource types found', async () => {
    expect((await read('wrong-workspace/state.json')).notes).toEqual(['no network-firewall ruleset (cloudflare_ruleset of phase magic_transit) in this state; it holds cloudflare_ruleset of phase http_request_firewall_custom; cloudflare_zone']);
  });

  it("the vendor SDK's bare ruleset object (no rules) is detected as the vendor's, with a note", async () => {
    const { snapshot, notes } = await readConfiguration([{ file: at('vendor/ruleset-without-rules.json') }]);
    expect(snapshot.rulesets?.map((r) => [r.name, r.rules])).toEqual([['My ruleset', []]]);
    expect(notes[0]).toMatch(/^ruleset "My ruleset" has no "rules"/);
  });
});

describe('inputs as saved', () => {
  it.each([
    ['UTF-16LE with a byte-order mark (Windows PowerShell 5.1)', (t: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')])],
    ['UTF-16LE without one', (t: string) => Buffer.from(t, 'utf16le')],
    ['UTF-16BE', (t: string) => Buffer.from(t, 'utf16le').swap16()],
  ])('%s is named in one line: save it as UTF-8', async (_what, encode) => {
    const file = path.join(tempDir('edgesim-utf16-'), 'plan.json');
    writeFileSync(file, encode(readFileSync(at('zone-level-module/state.json'), 'utf8')));
    await expect(readConfiguration([{ file }])).rejects.toThrow(new UserError(`the file is UTF-16 (as Windows PowerShell 5.1 writes \`>\`): save it as UTF-8, e.g. terraform show -json plan.out | Out-File -Encoding utf8 plan.json`, { source: file }).message);
  });
});
