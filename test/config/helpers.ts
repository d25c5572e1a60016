// What the tests of configuration files share: comparing what a user wrote, and an account to import into with a file changing all of it.
import type { Snapshot } from '../../src/config/snapshot.js';
import { call, cfg } from '../api/helpers.js';

/** Keys the server assigns (ids, times, versions, counts): left out to compare what a user wrote. */
const SERVER_FIELDS = new Set(['id', 'created_on', 'modified_on', 'version', 'last_updated', 'num_items', 'num_referencing_filters']);

/** `value` without the keys the server assigns, at any depth. */
export function withoutServerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutServerFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SERVER_FIELDS.has(k)).map(([k, v]) => [k, withoutServerFields(v)]));
  }
  return value;
}

/** A small account of the API at `url` using every kind of resource, two lists and a ruleset that uses one of them; the id of its list "office". */
export async function seedAccount(url: string, acct: string): Promise<string> {
  const base = cfg(url, acct);
  await call('PATCH', `${base}/tcp_protection_status`, { enabled: true });
  await call('POST', `${base}/prefixes/bulk`, [{ prefix: '10.0.0.0/16', comment: 'a' }, { prefix: '10.1.0.0/16' }]);
  await call('POST', `${base}/allowlist`, { prefix: '203.0.113.0/26', comment: 'Partner range', enabled: true });
  await call('POST', `${base}/syn_protection/rules`, { scope: 'global', name: 'global', mode: 'monitoring' });
  await call('POST', `${base}/tcp_flow_protection/filters`, { expression: 'ip.dst in { 203.0.113.0/24 }', mode: 'disabled' });
  const lists = `${url}/accounts/${acct}/rules/lists`;
  let office = '';
  for (const [name, ips] of [['office', ['172.16.0.1', '172.16.0.2']], ['partners', ['198.51.100.7']]] as const) {
    const list = (await call('POST', lists, { name, kind: 'ip', description: `${name} ranges` })).body.result;
    await call('POST', `${lists}/${list.id}/items`, ips.map((ip) => ({ ip })));
    if (name === 'office') office = list.id;
  }
  await call('POST', `${url}/accounts/${acct}/rulesets`, {
    name: 'fw', kind: 'root', phase: 'magic_transit',
    rules: [
      { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'ip.src in $office', ref: 'office' },
      { action: 'block', expression: 'ip.src in $partners and tcp.dstport == 22', description: 'no ssh' },
      { action: 'block', expression: 'tcp.dstport in { 1..1024 }' },
    ],
  });
  return office;
}

/** A file touching every resource seedAccount makes, changing each: a list replaced, one created, the ruleset using it. */
export const IMPORT_FILE: Snapshot = {
  tcp_protection_status: { enabled: false },
  prefixes: [{ prefix: '10.0.0.0/16', comment: 'changed' }, { prefix: '192.0.2.0/24' }],
  allowlist: [],
  syn_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled' }] },
  tcp_flow_protection: { filters: [{ expression: 'ip.dst in { 198.51.100.0/24 }', mode: 'enabled' }] },
  lists: [{ name: 'office', kind: 'ip', description: 'office ranges', items: [{ ip: '172.16.0.9' }] }, { name: 'labs', kind: 'ip', items: [{ ip: '192.0.2.1' }] }],
  rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $labs' }, { action: 'block', expression: 'ip.src in $partners' }] }],
};
