// What a snapshot settles for ATP before the first packet (AtpConfiguration): whether protection is
// on, and whether its packets need their ingress data center looked up (readsIngress: the packet
// path then fills cf.colo.name and cf.colo.region for every packet, and the fast path steps aside),
// which is so exactly when protection acts and a rule is scoped by region or data center.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import type { ProtectionFilter, ProtectionRule, Snapshot } from '../../src/config/snapshot.js';
import { SERVER_NET, rule, snapshot } from './helpers/config.js';
import { SYN, capture, flood, run } from './helpers/traffic.js';

const MODES = ['enabled', 'monitoring', 'disabled'] as const;
const mode = fc.constantFrom(...MODES);
/** a component's rules: a global rule or none, and none scoped or some of two region and a data-center rule, in any mode */
const scopedRules = fc.tuple(fc.option(mode), fc.option(mode), fc.option(mode)).map(([weur, enam, ams]) => [
  weur === null ? null : rule(weur, { scope: 'region', name: 'WEUR' }),
  enam === null ? null : rule(enam, { scope: 'region', name: 'ENAM' }),
  ams === null ? null : rule(ams, { scope: 'datacenter', name: 'AMS01' }),
]);
const rules = fc
  .tuple(fc.option(mode, { freq: 2 }), fc.oneof(fc.constant([]), scopedRules))
  .map(([global, scoped]) => [global === null ? null : rule(global), ...scoped].filter((r): r is ProtectionRule => r !== null));
const filters = fc.array(mode.map((m): ProtectionFilter => ({ expression: 'tcp.dstport == 443', mode: m })), { maxLength: 2 });
const prefixes = fc.constantFrom<NonNullable<Snapshot['prefixes']>>([], [{ prefix: `${SERVER_NET}.0/24`, excluded: false }], [{ prefix: `${SERVER_NET}.0/24`, excluded: true }]);

describe('what a snapshot settles', () => {
  it('packets need their ingress data center exactly when protection acts and a rule is scoped by region or data center', () => {
    fc.assert(
      fc.property(fc.boolean(), prefixes, rules, rules, filters, filters, (enabled, space, syn, oos, synFilters, oosFilters) => {
        const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ enabled, prefixes: space, syn, oos, synFilters, oosFilters }));
        const acting = [...syn, ...oos, ...synFilters, ...oosFilters].some((x) => x.mode !== 'disabled');
        const protects = space.some((p) => p.excluded !== true);
        const scoped = [...syn, ...oos].some((r) => r.scope !== 'global');
        expect(atp.active).toBe(enabled && protects && acting);
        expect(atp.readsIngress).toBe(enabled && protects && acting && scoped);
      }),
      { numRuns: 300 },
    );
  });

  it('a snapshot without tcp_protection_status has protection off, not refused', () => {
    const { tcp_protection_status: _, ...withoutStatus } = snapshot({ syn: [rule('enabled')] });
    const atp = AdvancedTcpProtection.fromSnapshot(withoutStatus);
    expect(atp.active).toBe(false);
    const { seen, report } = run(atp, capture([flood({ start: 0, seconds: 1, pps: 50, dstNet: SERVER_NET, flags: SYN, seed: 1 })]));
    expect(seen.every((x) => x.verdict === 'pass' && !x.protectedPacket)).toBe(true);
    expect(report).toMatchObject({ status: false, active: false });
  });
});
