// A configuration ATP cannot use is refused with an ConfigItemError whose path names the item
// (so the CLI can print it without a stack trace); the options are checked the same way.
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, DEFAULT_ATP_OPTIONS, parseAtpOptions, type AtpOptionsInput } from '../../src/atp/index.js';
import { ConfigItemError } from '../../src/errors.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { rule, snapshot } from './helpers/config.js';

function refusal(s: Snapshot, options?: AtpOptionsInput): ConfigItemError {
  try {
    AdvancedTcpProtection.fromSnapshot(s, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigItemError);
    return err as ConfigItemError;
  }
  throw new Error('accepted');
}

const bad = (x: unknown) => x as never;

describe('configuration errors name the bad item', () => {
  it.each([
    ['prefixes[1].prefix', snapshot({ prefixes: [{ prefix: '192.0.2.0/24' }, { prefix: '203.0.113/24' }] }), /"203\.0\.113\/24"/],
    ['prefixes[0].prefix', snapshot({ prefixes: [{ prefix: '192.0.2.2/26', excluded: true }] }), /host bits are set \(did you mean 192\.0\.2\.0\/26\?\)/],
    ['prefixes[0].excluded', snapshot({ prefixes: [{ prefix: '192.0.2.0/24', excluded: bad('yes') }] }), /true or false/],
    ['allowlist[0].prefix', snapshot({ allowlist: [{ prefix: 'partner', enabled: true }] }), /"partner"/],
    ['syn_protection.rules[0].mode', snapshot({ syn: [rule(bad('on'))] }), /unknown mode "on"/],
    ['syn_protection.rules[0].scope', snapshot({ syn: [rule('enabled', { scope: bad('country') })] }), /unknown scope "country"/],
    ['tcp_flow_protection.rules[0].rate_sensitivity', snapshot({ oos: [rule('enabled', { rate_sensitivity: bad('extreme') })] }), /low, medium or high/],
    ['syn_protection.rules[0].mitigation_type', snapshot({ syn: [rule('enabled', { mitigation_type: bad('cookie') })] }), /challenge or retransmit/],
    ['syn_protection.rules[1].name', snapshot({ syn: [rule('enabled'), rule('enabled', { scope: 'region', name: '' })] }), /region name/],
    ['syn_protection.rules[1]', snapshot({ syn: [rule('enabled', { scope: 'region', name: 'WEUR' }), rule('monitoring', { scope: 'region', name: 'weur' })] }), /second region rule for "weur" \(the first is syn_protection\.rules\[0\]\)/],
    ['tcp_flow_protection.filters[0].mode', snapshot({ oosFilters: [{ expression: 'tcp.dstport == 80', mode: bad('mitigate') }] }), /unknown mode "mitigate"/],
    ['tcp_protection_status.enabled', { tcp_protection_status: bad({ enabled: 'true' }) }, /true or false/],
  ])('%s', (path, s, message) => {
    const err = refusal(s as Snapshot);
    expect(err.path).toBe(path);
    expect(err.message.startsWith(`${path}: `)).toBe(true);
    expect(err.message).toMatch(message);
  });

  it.each([
    ['tcp_protection_status.enabled', 'null', { tcp_protection_status: null }, /true or false/],
    ['tcp_protection_status.enabled', 'text', { tcp_protection_status: 'on' }, /true or false/],
    ['snapshot', 'null', null, /expected a configuration object/],
    // a configuration's text given where its parsed document belongs
    ['snapshot', 'text', 'tcp_protection_status: {enabled: true}', /expected a configuration object/],
  ])('%s when it is %s', (path, _, s, message) => {
    const err = refusal(s as never);
    expect(err.path).toBe(path);
    expect(err.message).toMatch(message);
  });

  it('a filter expression that does not parse is reported with the engine message under the filter path', () => {
    const err = refusal(snapshot({ synFilters: [{ expression: 'tcp.dstport == 80', mode: 'enabled' }, { expression: 'ip.src==34', mode: 'monitoring' }] }));
    expect(err.path).toBe('syn_protection.filters[1].expression');
    expect(err.message).toBe("syn_protection.filters[1].expression: Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax");
  });

  it('filters accept only the four filter fields', () => {
    const err = refusal(snapshot({ oosFilters: [{ expression: 'ip.proto == "tcp"', mode: 'enabled' }] }));
    expect(err.path).toBe('tcp_flow_protection.filters[0].expression');
    expect(err.message).toMatch(/unknown identifier/);
  });
});

describe('options', () => {
  it('overrides any part and keeps the rest of the defaults', () => {
    const o = parseAtpOptions({ rateFactor: { high: 1.2 }, retransmit: { maxGapSeconds: 20 }, bidirectional: true });
    expect(o.rateFactor).toEqual({ high: 1.2, medium: 2, low: 4 });
    expect(o.retransmit).toEqual({ ...DEFAULT_ATP_OPTIONS.retransmit, maxGapSeconds: 20 });
    expect(o.bidirectional).toBe(true);
    expect(DEFAULT_ATP_OPTIONS.rateFactor.high).toBe(1.5);
    expect(Object.isFrozen(DEFAULT_ATP_OPTIONS.rateFactor)).toBe(true);
  });

  it.each([
    [{ rateFactr: { high: 1 } }, 'options.rateFactr', /unknown option/],
    [{ hysteresis: { offRatio: 2 } }, 'options.hysteresis.offRatio', /at most 1/],
    [{ syn_protection: { baselinePps: -1 } }, 'options.syn_protection.baselinePps', /null \(learn it\)/],
    [{ maxFlows: 0.5 }, 'options.maxFlows', /whole number/],
    [{ burstWindowSeconds: 5 }, 'options.burstWindowSeconds', /must not exceed rateWindowSeconds/],
    [{ retransmit: { minGapSeconds: 11 } }, 'options.retransmit.minGapSeconds', /must not exceed retransmit\.maxGapSeconds/],
    [{ timeouts: 5 }, 'options.timeouts', /expected an object/],
  ])('%j is refused', (input, path, message) => {
    const err = refusal(snapshot({}), input as AtpOptionsInput);
    expect(err.path).toBe(path);
    expect(err.message).toMatch(message);
  });

  it('are parsed on their own, so an options error is told apart from a snapshot item', () => {
    expect(() => parseAtpOptions({ learningSeconds: -1 })).toThrow(ConfigItemError);
    for (const input of [null, [], 'fast']) {
      const err = (() => {
        try {
          parseAtpOptions(input as never);
        } catch (e) {
          return e as ConfigItemError;
        }
        throw new Error('accepted');
      })();
      expect(err).toBeInstanceOf(ConfigItemError);
      expect(err.message).toBe('options: expected an object of ATP options');
    }
    expect(parseAtpOptions(parseAtpOptions({ learningSeconds: 3 }))).toEqual(parseAtpOptions({ learningSeconds: 3 }));
  });
});
