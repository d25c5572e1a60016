import { describe, expect, it } from 'vitest';
import { Has } from '../../src/capture/record.js';
import type { Scope, Snapshot } from '../../src/config/snapshot.js';
import { validateSnapshot } from '../../src/config/validate.js';
import { compilePath } from '../../src/sim/build.js';
import { decideRecord } from '../../src/sim/decide-frame.js';
import { Run } from '../../src/sim/run.js';
import { record } from '../helpers/records.js';

function snapshot(scope: Scope, name: string): Snapshot {
  return {
    tcp_protection_status: { enabled: true },
    prefixes: [{ prefix: '203.0.113.0/24', comment: '', excluded: false }],
    syn_protection: { rules: [{ scope, name, mode: 'monitoring', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
  };
}

describe('building the packet path', () => {
  it('looks up the ingress data center when a protection rule is scoped by region, and not for global rules', async () => {
    const scoped = await compilePath(snapshot('region', 'WEUR'));
    const rec = record({ src: '8.8.8.8', dst: '203.0.113.10' });
    decideRecord(rec, scoped, new Run(scoped));
    expect(rec.present & (Has.COLO_NAME | Has.COLO_REGION)).toBe(Has.COLO_NAME | Has.COLO_REGION);

    const global = await compilePath(snapshot('global', 'global'));
    const plain = record({ src: '8.8.8.8', dst: '203.0.113.10' });
    decideRecord(plain, global, new Run(global));
    expect(plain.present & (Has.COLO_NAME | Has.COLO_REGION | Has.SRC_COUNTRY)).toBe(0);
  });

  it('a ruleset past the vendor\'s default of 200 rules is built in full, with a warning', async () => {
    const rules = Array.from({ length: 250 }, (_, i) => ({ action: 'block' as const, expression: `tcp.dstport == ${i + 1}` }));
    const snap = validateSnapshot({ rulesets: [{ name: 'big', kind: 'root', phase: 'edge_transit', rules }] }, 'big.json');
    const built = await compilePath(snap);
    expect(built.warnings).toEqual([
      'rulesets[0] ("big") has 250 rules, more than the vendor\'s default maximum of 200 per ruleset (raised only for some accounts); replaying all of them',
    ]);
    const rec = record({ src: '8.8.8.8', dst: '203.0.113.10', proto: 'tcp', dport: 250 });
    expect(decideRecord(rec, built, new Run(built)).drop).toBe(true);
    expect((await compilePath(validateSnapshot({ rulesets: [{ name: 'ok', kind: 'root', phase: 'edge_transit', rules: rules.slice(0, 200) }] }))).warnings).toEqual([]);
  });
});
