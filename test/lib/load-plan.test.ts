// loadPlan gives a Terraform plan's before and after configurations, so `diff(before, after)` does
// in code what `edgesim diff --static --plan` does, with the same pairing of rules without ref.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diff, loadPlan } from '../../src/lib/index.js';
import { runCli } from '../helpers/cli.js';

const ROOT = path.join(import.meta.dirname, '../..');
const PLAN = 'test/config/inputs/fixtures/real-world/v5-pull-request/plan.json';

describe('loadPlan', () => {
  it('diff(before, after) is edgesim diff --static --plan', async () => {
    const { before, after } = await loadPlan(path.join(ROOT, PLAN));
    expect(before.source).toBe(path.join(ROOT, PLAN));
    expect(after.notes).toEqual(["cloudflare_ruleset.mt: 7 rules' ids are known only after apply (no ref): matched to the rules in state by content and order; set ref on each rule to keep its name stable"]);
    const cli = runCli(['diff', '--static', '--plan', PLAN, '--format', 'json']);
    expect(cli.status).toBe(1);
    expect(JSON.parse(JSON.stringify(await diff(before, after)))).toEqual(JSON.parse(cli.stdout));
  });

  it('adds files to both sides and reads one account', async () => {
    const atp = path.join(ROOT, 'test/config/inputs/fixtures/demo-atp.json');
    const { before, after } = await loadPlan(path.join(ROOT, PLAN), { config: atp });
    expect(before.snapshot.tcp_protection_status).toEqual({ enabled: true });
    expect(after.snapshot.prefixes).toEqual(before.snapshot.prefixes);
    await expect(loadPlan(path.join(ROOT, PLAN), { account: 'someone-else' })).rejects.toThrow('--account someone-else: no firewall ruleset or list of this account in the file');
  });

  it('refuses a state (no resource_changes) in one line', async () => {
    const state = path.join(ROOT, 'test/config/inputs/fixtures/real-world/v5-pull-request/state.json');
    await expect(loadPlan(state)).rejects.toThrow(`${state}: --plan: not a Terraform plan (no resource_changes): give the output of terraform show -json PLANFILE`);
  });
});
