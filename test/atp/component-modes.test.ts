// A component's mode for a packet, what set it and whose thresholds apply, asked of ComponentModes
// directly: scope names compared case-insensitively byte for byte (ASCII letters only, whole
// names), a data center named by its city code, filters over rules, sensitivities defaulting to
// medium, retransmit mitigation for SYN rules only, and the configuration errors of an item that is
// not an object.
import { describe, expect, it } from 'vitest';
import { ComponentModes } from '../../src/atp/component-modes.js';
import { ComponentRules, DEFAULT_SOURCE, type FilterCompiler } from '../../src/atp/component-rules.js';
import { parseAtpOptions } from '../../src/atp/index.js';
import { Mode, STAGES } from '../../src/atp/vocabulary.js';
import type { ProtectionComponent } from '../../src/config/snapshot.js';
import { ConfigItemError } from '../../src/errors.js';
import { record } from '../helpers/records.js';
import { rule } from './helpers/config.js';

const SYN = STAGES.indexOf('syn_protection');
const OOS = STAGES.indexOf('tcp_flow_protection');

const options = parseAtpOptions({ syn_protection: { baselinePps: 1000 }, tcp_flow_protection: { baselinePps: 1000 } });

/** Filters whose expression is a destination port: "80" matches packets to port 80. */
const byPort: FilterCompiler = (expression) => (rec) => rec.dstPort === Number(expression);

function modes(component: ProtectionComponent, stage = SYN): ComponentModes {
  return new ComponentModes(new ComponentRules(stage, component, byPort), options);
}

const at = (colo?: string, region?: string, dport = 443) => record({ src: '192.0.2.1', dst: '203.0.113.10', dport, colo, region });

function refusal(component: unknown, stage = SYN): ConfigItemError {
  try {
    modes(component as ProtectionComponent, stage);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigItemError);
    return err as ConfigItemError;
  }
  throw new Error('accepted');
}

describe('ComponentModes', () => {
  it('compares scope names case-insensitively over ASCII letters only, and whole names only', () => {
    const m = modes({ rules: [rule('enabled', { scope: 'region', name: 'AZ' }), rule('monitoring', { scope: 'region', name: '`{' })] });
    expect(m.resolve(at(undefined, 'az'))).toBe(Mode.ENABLED);
    expect(m.resolve(at(undefined, 'Az'))).toBe(Mode.ENABLED);
    expect(m.resolve(at(undefined, 'AZ'))).toBe(Mode.ENABLED);
    // '@' and '[' (just before 'A' and after 'Z') are not letters: they are not the lower-case '`' and '{'
    const marks = modes({ rules: [rule('enabled', { scope: 'region', name: '`a' }), rule('monitoring', { scope: 'region', name: '{a' })] });
    expect(marks.resolve(at(undefined, '@a'))).toBe(Mode.OFF);
    expect(marks.resolve(at(undefined, '[a'))).toBe(Mode.OFF);
    expect(marks.resolve(at(undefined, '`A'))).toBe(Mode.ENABLED);
    expect(marks.resolve(at(undefined, '{A'))).toBe(Mode.MONITORING);
    expect(m.resolve(at(undefined, '@['))).toBe(Mode.OFF);
    expect(m.resolve(at(undefined, '`{'))).toBe(Mode.MONITORING);
    // a region name is taken as written, never as a data center's city code
    const ams = modes({ rules: [rule('enabled', { scope: 'region', name: 'AMS' })] });
    expect(ams.resolve(at('ams01', 'ams'))).toBe(Mode.ENABLED);
    // a longer or shorter name is another region
    expect(m.resolve(at(undefined, 'AZ2'))).toBe(Mode.OFF);
    expect(m.resolve(at(undefined, 'A'))).toBe(Mode.OFF);
    expect(m.source).toBe(DEFAULT_SOURCE);
  });

  it('answers the same for a name met again (the per-name cache), for many names', () => {
    const m = modes({ rules: [rule('enabled', { scope: 'datacenter', name: 'ams01' })] });
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 1100; k++) expect(m.resolve(at(`x${k}`))).toBe(Mode.OFF);
      expect(m.resolve(at('AMS01'))).toBe(Mode.ENABLED);
      expect(m.resolve(at('ams01'))).toBe(Mode.ENABLED);
    }
  });

  it('a data center given by its city code is that city’s first data center', () => {
    const m = modes({ rules: [rule('enabled', { scope: 'datacenter', name: 'LAX' })] });
    expect(m.resolve(at('lax01', 'WNAM'))).toBe(Mode.ENABLED);
    expect(m.source).toMatchObject({ kind: 'rule', scope: 'datacenter', name: 'LAX' });
    expect(m.resolve(at('lax', 'WNAM'))).toBe(Mode.OFF);
    // a name that is no known data center is kept, compared case-insensitively
    const unknown = modes({ rules: [rule('enabled', { scope: 'datacenter', name: 'ZZ99' })] });
    expect(unknown.resolve(at('zz99'))).toBe(Mode.ENABLED);
    expect(unknown.resolve(at('ZZ99'))).toBe(Mode.ENABLED);
    expect(refusal({ rules: [rule('enabled', { scope: 'datacenter', name: 'lax' }), rule('monitoring', { scope: 'datacenter', name: 'LAX01' })] }).message).toBe(
      'syn_protection.rules[1]: a second datacenter rule for "LAX01" (the first is syn_protection.rules[0])',
    );
  });

  it('picks data center over region over global, and the rule’s meter and source go with it', () => {
    const m = modes({ rules: [rule('disabled', { id: 'g' }), rule('enabled', { scope: 'region', name: 'WEUR' }), rule('monitoring', { scope: 'datacenter', name: 'ams01', id: 'dc' })] });
    expect(m.rules.scoped).toBe(true);
    expect(m.resolve(at('ams01', 'WEUR'))).toBe(Mode.MONITORING);
    expect(m.source).toMatchObject({ kind: 'rule', ref: 'dc', id: 'dc', scope: 'datacenter', name: 'ams01' });
    expect(m.meter.name).toBe('ams01');
    expect(m.resolve(at('fra02', 'WEUR'))).toBe(Mode.ENABLED);
    expect(m.source).toMatchObject({ kind: 'rule', ref: 'syn_protection.rules[1]', id: null, scope: 'region', name: 'WEUR' });
    expect(m.meter.name).toBe('WEUR');
    expect(m.resolve(at('sjc01', 'WNAM'))).toBe(Mode.DISABLED);
    expect(m.resolve(at())).toBe(Mode.DISABLED);
    expect(m.source).toMatchObject({ kind: 'rule', ref: 'g', scope: 'global', name: 'global' });
    expect(m.meter.scope).toBe('global');
    expect(m.meters.map((x) => [x.scope, x.name])).toEqual([
      ['global', 'global'],
      ['region', 'WEUR'],
      ['datacenter', 'ams01'],
      ['default', 'default'],
    ]);
  });

  it('is scoped when a region or a data center rule exists, not for a global rule', () => {
    expect(modes({ rules: [rule('enabled')] }).rules.scoped).toBe(false);
    expect(modes({ rules: [rule('enabled', { scope: 'region', name: 'WEUR' })] }).rules.scoped).toBe(true);
    expect(modes({ rules: [rule('enabled', { scope: 'datacenter', name: 'ams01' })] }).rules.scoped).toBe(true);
    expect(modes({}).rules.scoped).toBe(false);
  });

  it('a matching filter sets the mode, the applicable rule (or the default) still gives the meter and thresholds', () => {
    const m = modes({ rules: [rule('enabled', { scope: 'region', name: 'WEUR' })], filters: [{ expression: '80', mode: 'disabled', id: 'f80' }, { expression: '22', mode: 'monitoring' }] });
    const rec = at(undefined, 'WEUR', 80);
    expect(m.resolve(rec)).toBe(Mode.DISABLED);
    expect(m.source).toMatchObject({ kind: 'filter', ref: 'f80', id: 'f80', expression: '80' });
    expect(m.meter.name).toBe('WEUR');
    expect(m.resolution(rec)).toMatchObject({ mode: Mode.DISABLED, modeFrom: { kind: 'filter', ref: 'f80' }, thresholdsFrom: { kind: 'rule', scope: 'region', name: 'WEUR' } });
    const elsewhere = at(undefined, 'WNAM', 22);
    expect(m.resolve(elsewhere)).toBe(Mode.MONITORING);
    expect(m.source).toMatchObject({ kind: 'filter', ref: 'syn_protection.filters[1]', id: null, expression: '22' });
    expect(m.meter.scope).toBe('default');
    expect(m.resolution(elsewhere)).toMatchObject({ mode: Mode.MONITORING, thresholdsFrom: DEFAULT_SOURCE });
    expect(m.resolve(at(undefined, 'WNAM', 443))).toBe(Mode.OFF);
    expect(m.source).toBe(DEFAULT_SOURCE);
  });

  it('acts when a rule or a filter can enable or monitor, not when all are disabled', () => {
    expect(modes({}).rules.acting).toBe(false);
    const none = new ComponentModes(new ComponentRules(SYN, undefined, byPort), options);
    expect([none.rules.acting, none.rules.scoped, none.resolve(at('ams01', 'WEUR', 80)), none.meters.length]).toEqual([false, false, Mode.OFF, 1]);
    expect(modes({ rules: [rule('disabled')], filters: [{ expression: '80', mode: 'disabled' }] }).rules.acting).toBe(false);
    expect(modes({ filters: [{ expression: '80', mode: 'monitoring' }] }).rules.acting).toBe(true);
    const enabling = modes({ filters: [{ expression: '80', mode: 'enabled', id: 'e' }] });
    expect(enabling.rules.acting).toBe(true);
    expect(enabling.resolve(at(undefined, undefined, 80))).toBe(Mode.ENABLED);
    expect(enabling.source).toMatchObject({ kind: 'filter', ref: 'e', expression: '80' });
    expect(enabling.resolve(at(undefined, undefined, 81))).toBe(Mode.OFF);
    expect(enabling.source).toMatchObject({ kind: 'default', ref: null, scope: null });
    expect(modes({ rules: [rule('monitoring')] }).rules.acting).toBe(true);
  });

  it('sensitivities default to medium; a SYN rule’s mitigation type says whether it is retransmit-based', () => {
    const m = modes({
      rules: [
        { scope: 'global', name: 'global', mode: 'enabled' },
        rule('enabled', { scope: 'region', name: 'WEUR', rate_sensitivity: 'high', burst_sensitivity: 'low', mitigation_type: 'retransmit' }),
        rule('enabled', { scope: 'region', name: 'WNAM', mitigation_type: 'challenge' }),
      ],
    });
    m.resolve(at());
    expect(m.meter).toMatchObject({ ratePps: 2000, burstPps: 8000 });
    expect(m.retransmit).toBe(false);
    m.resolve(at(undefined, 'WEUR'));
    expect(m.meter).toMatchObject({ ratePps: 1500, burstPps: 12000 });
    expect(m.retransmit).toBe(true);
    m.resolve(at(undefined, 'WNAM'));
    expect(m.retransmit).toBe(false);
    m.resolve(at(undefined, 'APAC'));
    expect(m.retransmit).toBe(false);
    // out-of-state rules have no mitigation type: the field is not read there
    const oos = modes({ rules: [rule('enabled', { mitigation_type: 'cookie' as never })] }, OOS);
    oos.resolve(at());
    expect(oos.retransmit).toBe(false);
  });

  it.each([
    [{ rules: [null] }, 'syn_protection.rules[0]', 'expected a rule object'],
    [{ rules: ['global'] }, 'syn_protection.rules[0]', 'expected a rule object'],
    [{ rules: [{ scope: 'datacenter', mode: 'enabled' }] }, 'syn_protection.rules[0].name', 'a datacenter rule needs the data center name'],
    [{ rules: [{ scope: 'region', name: 7, mode: 'enabled' }] }, 'syn_protection.rules[0].name', 'a region rule needs the region name'],
    [{ rules: [{ scope: 'global', mode: 'enabled', burst_sensitivity: 3 }] }, 'syn_protection.rules[0].burst_sensitivity', 'unknown sensitivity 3 (expected low, medium or high)'],
    [{ rules: [{ scope: 'global', mode: 'enabled', rate_sensitivity: 'extreme' }] }, 'syn_protection.rules[0].rate_sensitivity', 'unknown sensitivity "extreme" (expected low, medium or high)'],
    [{ rules: [{ scope: 'global', mode: ['enabled'] }] }, 'syn_protection.rules[0].mode', 'unknown mode ["enabled"] (expected enabled, monitoring or disabled)'],
    [{ rules: [{ scope: 'global', mode: 'toString' }] }, 'syn_protection.rules[0].mode', 'unknown mode "toString" (expected enabled, monitoring or disabled)'],
    [{ rules: [{ scope: 'global', mode: 'enabled', mitigation_type: 'constructor' }] }, 'syn_protection.rules[0].mitigation_type', 'unknown mitigation type "constructor" (expected challenge or retransmit)'],
    [{ filters: [{ expression: '80', mode: '__proto__' }] }, 'syn_protection.filters[0].mode', 'unknown mode "__proto__" (expected enabled, monitoring or disabled)'],
    [{ rules: [{ scope: 'global', mode: 7 }] }, 'syn_protection.rules[0].mode', 'unknown mode 7 (expected enabled, monitoring or disabled)'],
    [{ rules: [{ scope: 'planet', mode: 'enabled' }] }, 'syn_protection.rules[0].scope', 'unknown scope "planet" (expected global, region or datacenter)'],
    [{ rules: [{ scope: 'global', mode: 'enabled', mitigation_type: 'cookie' }] }, 'syn_protection.rules[0].mitigation_type', 'unknown mitigation type "cookie" (expected challenge or retransmit)'],
    [{ rules: [rule('enabled'), { scope: 'global', mode: 'monitoring' }] }, 'syn_protection.rules[1]', 'a second global rule for "global" (the first is syn_protection.rules[0])'],
    [{ filters: [null] }, 'syn_protection.filters[0]', 'expected a filter object'],
    [{ filters: [5] }, 'syn_protection.filters[0]', 'expected a filter object'],
    [{ filters: [{ mode: 'enabled' }] }, 'syn_protection.filters[0].expression', 'expected an expression string'],
    [{ filters: [{ expression: '80', mode: 'on' }] }, 'syn_protection.filters[0].mode', 'unknown mode "on" (expected enabled, monitoring or disabled)'],
  ])('refuses %j at %s', (component, path, detail) => {
    const err = refusal(component);
    expect(err.path).toBe(path);
    expect(err.message).toBe(`${path}: ${detail}`);
  });

  it('names the component in the path of its items', () => {
    expect(refusal({ rules: [null] }, OOS).path).toBe('tcp_flow_protection.rules[0]');
    expect(refusal({ filters: [null] }, OOS).path).toBe('tcp_flow_protection.filters[0]');
  });
});
