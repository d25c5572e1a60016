// Filters and the mode precedence: a matching filter decides the mode (enabled, then monitoring,
// then disabled), overriding the rules even when they are disabled; the thresholds still come from
// the applicable rule, or from the component default when there is none.
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { ACK, SYN, capture, flood, run, type Pkt } from './helpers/traffic.js';

const host = (p: Pkt) => Number(p.dst.split('.')[3]);

describe('ATP filters', () => {
  it('an enabled filter switches SYN protection on for the traffic it matches, although the rule is disabled', () => {
    const packets = capture([
      flood({ start: 0, seconds: 2, pps: 5000, dstNet: SERVER_NET, dport: 80, flags: SYN, seed: 21 }),
      flood({ start: 0, seconds: 2, pps: 2000, dstNet: SERVER_NET, dport: 22, flags: SYN, seed: 22 }),
    ]);
    const config = snapshot({ syn: [rule('disabled')], synFilters: [{ expression: `ip.dst in { ${SERVER_NET}.0/25 } and tcp.dstport in { 80 443 }`, mode: 'enabled' }] });
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(config, { learningSeconds: 0 }), packets);
    const matched = seen.filter((_, i) => host(packets[i]) < 128 && packets[i].dport === 80);
    const others = seen.filter((_, i) => !(host(packets[i]) < 128 && packets[i].dport === 80));
    expect(matched.length).toBeGreaterThan(4000);
    expect(matched.every((x) => x.mode === 'enabled')).toBe(true);
    expect(matched.filter((x) => x.verdict === 'drop').length / matched.length).toBeGreaterThanOrEqual(0.99);
    expect(others.every((x) => x.mode === 'disabled' && x.verdict === 'pass' && x.monitor === null)).toBe(true);
    // the thresholds are the (disabled) global rule's, counted on its meter
    expect(report.components.syn_protection.scopes.map((s) => [s.scope, s.packets])).toEqual([['global', matched.length]]);
  });

  it('several matching filters: enabled wins over monitoring, monitoring over disabled, and a disabled filter switches off an enabled rule', () => {
    const filters = [
      { expression: 'tcp.dstport == 80', mode: 'disabled' as const },
      { expression: 'ip.src in { 198.51.100.0/24 }', mode: 'monitoring' as const },
      { expression: `ip.dst == ${SERVER_NET}.10 and tcp.srcport >= 1024`, mode: 'enabled' as const },
    ];
    const engine = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], synFilters: filters }), ALWAYS_MITIGATING);
    const syn = (src: string, dst: string, dport: number): Pkt => ({ t: 0, src, dst, sport: 5000, dport, flags: SYN, seq: 1 });
    const packets = [
      syn('198.51.100.1', `${SERVER_NET}.10`, 80),
      syn('198.51.100.1', `${SERVER_NET}.11`, 80),
      syn('192.0.2.1', `${SERVER_NET}.11`, 80),
      syn('192.0.2.1', `${SERVER_NET}.11`, 443),
    ];
    const { seen } = run(engine, packets);
    expect(seen.map((x) => [x.mode, x.verdict, x.monitor])).toEqual([
      ['enabled', 'drop', null],
      ['monitoring', 'pass', 'syn_protection:CHALLENGE_NEEDED'],
      ['disabled', 'pass', null],
      ['enabled', 'drop', null],
    ]);
  });

  it('a filter with no rule at all uses the component default thresholds (medium), reported as scope "default"', () => {
    const packets = capture([flood({ start: 0, seconds: 1, pps: 3000, dstNet: SERVER_NET, flags: ACK, dport: 443, seed: 23 })]);
    const config = snapshot({ oosFilters: [{ expression: 'tcp.dstport == 443', mode: 'enabled' }] });
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(config, { learningSeconds: 0 }), packets);
    expect(seen.filter((x) => x.reason === 'NOT_FOUND').length / seen.length).toBeGreaterThanOrEqual(0.95);
    expect(report.components.tcp_flow_protection.scopes).toMatchObject([{ scope: 'default', name: 'default', rateThresholdPps: 100, burstThresholdPps: 500, packets: 3000 }]);
  });

  it('the vendor example: an out-of-state filter in disabled mode switches that protection off for the ports it names', () => {
    const config = snapshot({ oos: [rule('enabled')], oosFilters: [{ expression: `ip.dst in { ${SERVER_NET}.0/24 } and tcp.dstport in { 8000..8081 }`, mode: 'disabled' }] });
    const engine = AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING);
    const ack = (dport: number): Pkt => ({ t: 0, src: '192.0.2.1', dst: `${SERVER_NET}.5`, sport: 5000, dport, flags: ACK, seq: 1 });
    const { seen } = run(engine, [ack(8080), ack(8082), ack(7999)]);
    expect(seen.map((x) => [x.mode, x.reason])).toEqual([
      ['disabled', null],
      ['enabled', 'NOT_FOUND'],
      ['enabled', 'NOT_FOUND'],
    ]);
  });

  it('filters read IPv6 addresses and both ports', () => {
    const config = {
      ...snapshot({ synFilters: [{ expression: 'ip.src in { 2001:db8:1::/48 } and tcp.srcport in { 1000..2000 }', mode: 'monitoring' }] }),
      prefixes: [{ prefix: '2001:db8:ffff::/48', excluded: false }],
    };
    const engine = AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING);
    const syn = (src: string, sport: number): Pkt => ({ t: 0, src, dst: '2001:db8:ffff::10', sport, dport: 443, flags: SYN, seq: 1 });
    const { seen } = run(engine, [syn('2001:db8:1::5', 1500), syn('2001:db8:1::5', 2500), syn('2001:db8:2::5', 1500)]);
    expect(seen.map((x) => x.mode)).toEqual(['monitoring', 'off', 'off']);
  });
});
