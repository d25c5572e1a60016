// The name edgesim gives a Terraform rule without ref (its address and description) is a name for
// reports, not a ref the user wrote: `edgesim import` of such a state writes the rule without a ref
// (the API gives it its id, as it does for the provider), and keeps the refs the user set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { call, start, TOKEN } from '../api/helpers.js';
import { runCliAsync } from '../helpers/cli.js';

const FIXTURES = 'test/config/inputs/fixtures/real-world/v5-pull-request';
let server: RunningServer;

beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

async function importedRefs(file: string, account: string): Promise<Array<{ ref: string; id: string }>> {
  const r = await runCliAsync(['import', `${FIXTURES}/${file}`, '--api', server.url, '--account', account, '--token', TOKEN]);
  expect([r.status, r.stderr]).toEqual([0, '']);
  const rulesets = (await call('GET', `${server.url}/accounts/${account}/rulesets`)).body.result as Array<{ id: string; phase: string }>;
  const id = rulesets.find((rs) => rs.phase === 'magic_transit')!.id;
  return ((await call('GET', `${server.url}/accounts/${account}/rulesets/${id}`)).body.result.rules as Array<{ ref: string; id: string }>).map(({ ref, id: ruleId }) => ({ ref, id: ruleId }));
}

describe('import of a Terraform state', () => {
  it('writes rules without ref as the user wrote them: the server gives each its id as ref', async () => {
    const rules = await importedRefs('state.json', 'tf-no-refs');
    expect(rules).toHaveLength(6);
    for (const r of rules) expect(r.ref).toBe(r.id);
  });

  it('keeps the refs the user set', async () => {
    expect((await importedRefs('state-refs.json', 'tf-refs')).map((r) => r.ref)).toEqual(['block-attack-udp-sources', 'block-reflection-tcp-sources', 'block-other-protocols', 'allow-web', 'allow-dns-ntp-replies', 'block-web-servers']);
  });
});
