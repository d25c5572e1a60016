// ATP rules scoped to a region or a data center must name one that exists — the lists --region and
// --colo take (src/data/colos.ts) — in the one schema the snapshot loader and the API share: a rule
// for region "MARS" or data center "zzz01" used to be accepted and never apply. A data center given
// by its city code ("lax", the vendor's examples) is accepted and applies to that city's first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import type { RunningServer } from '../../src/api/server.js';
import { VOCABULARY } from '../../src/config/checks.js';
import { COMPONENT_RULES, createSchema } from '../../src/config/resources.js';
import { dottedPath, parseWithSchema } from '../../src/config/schema.js';
import { validateSnapshot } from '../../src/config/validate.js';
import { call, cfg, start } from '../api/helpers.js';
import { SERVER_NET, rule, snapshot } from '../atp/helpers/config.js';
import { SYN, flood, run } from '../atp/helpers/traffic.js';

const messages = (value: unknown) => parseWithSchema(createSchema(COMPONENT_RULES.syn_protection), value, VOCABULARY).issues.map((i) => `${dottedPath(i.path)}: ${i.message}`);
const REGIONS = 'WNAM, ENAM, NSAM, SSAM, WEUR, EEUR, ME, AFR, APAC, OC';

describe('rule scopes in the schema', () => {
  it.each([
    [{ scope: 'region', name: 'MARS', mode: 'enabled' }, [`name: unknown region "MARS" (known: ${REGIONS})`]],
    [{ scope: 'datacenter', name: 'zzz01', mode: 'enabled' }, ['name: unknown data center "zzz01" (expected one of the 90 in datasets/colos.json, e.g. fra01 or sfo06, or a city code such as lax)']],
    [{ scope: 'datacenter', name: 'fra02', mode: 'enabled' }, ['name: unknown data center "fra02" (did you mean "fra01"?)']],
    [{ scope: 'datacenter', name: 'frx01', mode: 'enabled' }, ['name: unknown data center "frx01" (did you mean "fra01"?)']],
    [{ scope: 'region', name: 'weur', mode: 'enabled' }, []],
    [{ scope: 'datacenter', name: 'FRA01', mode: 'enabled' }, []],
    [{ scope: 'datacenter', name: 'lax', mode: 'enabled' }, []],
    [{ scope: 'global', name: 'anything', mode: 'enabled' }, []],
  ])('%j', (value, expected) => {
    expect(messages(value)).toEqual(expected);
    expect(parseWithSchema(createSchema(COMPONENT_RULES.tcp_flow_protection), value, VOCABULARY).issues.map((i) => i.message)).toEqual(expected.map((m) => m.replace(/^name: /, '')));
  });

  it('a snapshot with an unknown scope is refused, naming the file and the rule', () => {
    expect(() => validateSnapshot({ tcp_flow_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled' }, { scope: 'region', name: 'MARS', mode: 'enabled' }] } }, 'f.json')).toThrow(
      `f.json: tcp_flow_protection.rules[1].name: unknown region "MARS" (known: ${REGIONS})`,
    );
  });
});

describe('rule scopes in the API', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a rule for an unknown region or data center with the known names', async () => {
    const base = cfg(server.url, 'scopes');
    const mars = await call('POST', `${base}/syn_protection/rules`, { scope: 'region', name: 'MARS', mode: 'monitoring' });
    expect(mars.status).toBe(400);
    expect(mars.body.errors[0].message).toContain(`unknown region "MARS" (known: ${REGIONS})`);
    const dc = await call('POST', `${base}/tcp_flow_protection/rules`, { scope: 'datacenter', name: 'zzz01', mode: 'monitoring' });
    expect(dc.status).toBe(400);
    expect(dc.body.errors[0].message).toContain('unknown data center "zzz01"');
    expect((await call('POST', `${base}/syn_protection/rules`, { scope: 'datacenter', name: 'lax', mode: 'monitoring' })).status).toBe(200);
    expect((await call('GET', `${base}/syn_protection/rules`)).body.result).toHaveLength(1);
  });
});

describe('a data-center rule given by its city code', () => {
  it('applies to that city\'s data center', () => {
    const packets = [
      ...flood({ start: 11, seconds: 1, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 3, colo: 'lax01', region: 'WNAM' }),
      ...flood({ start: 11, seconds: 1, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 4, colo: 'fra01', region: 'WEUR' }),
    ].sort((a, b) => a.t - b.t);
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled', { scope: 'datacenter', name: 'lax' })] }), { learningSeconds: 0 });
    const { seen } = run(atp, packets);
    const lax = seen.filter((_, i) => packets[i].colo === 'lax01');
    const fra = seen.filter((_, i) => packets[i].colo === 'fra01');
    expect(lax.filter((s) => s.verdict === 'drop').length).toBeGreaterThan(4000);
    expect(fra.every((s) => s.mode === 'off' && s.verdict === 'pass')).toBe(true);
  });
});
