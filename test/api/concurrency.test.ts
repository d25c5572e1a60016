// A write answers with exactly what it wrote: the response is the state that write produced, not
// the account as it is when the disk write completes (by then parallel requests have changed it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { call, cfg, start, tempDir } from './helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await start({ data: tempDir() });
});
afterAll(() => server.close());

describe('parallel writes', () => {
  it('20 parallel entry-point PUTs: each answers with the rules it wrote', async () => {
    const url = `${server.url}/accounts/par/rulesets/phases/edge_transit/entrypoint`;
    await call('PUT', url, { rules: [] });
    const bodies = Array.from({ length: 20 }, (_, i) => ({ rules: [{ action: 'block', expression: `tcp.dstport == ${1000 + i}`, description: `put ${i}` }] }));
    const replies = await Promise.all(bodies.map((b) => call('PUT', url, b)));
    replies.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.body.result.rules.map((rule: { description: string }) => rule.description)).toEqual([`put ${i}`]);
    });
    const versions = replies.map((r) => Number(r.body.result.version));
    expect(new Set(versions).size).toBe(20);
  });

  it('20 parallel status PATCHes: each answers with the value it set', async () => {
    const url = `${cfg(server.url, 'par')}/tcp_protection_status`;
    const values = Array.from({ length: 20 }, (_, i) => i % 2 === 0);
    const replies = await Promise.all(values.map((enabled) => call('PATCH', url, { enabled })));
    expect(replies.map((r) => r.body.result.enabled)).toEqual(values);
  });

  it('parallel PATCHes of one filter: each answers with its own mode', async () => {
    const base = `${cfg(server.url, 'par')}/syn_protection/filters`;
    const f = (await call('POST', base, { expression: 'tcp.dstport == 80', mode: 'monitoring' })).body.result;
    const modes = Array.from({ length: 20 }, (_, i) => (['enabled', 'disabled', 'monitoring'] as const)[i % 3]);
    const replies = await Promise.all(modes.map((mode) => call('PATCH', `${base}/${f.id}`, { mode })));
    expect(replies.map((r) => r.body.result.mode)).toEqual(modes);
  });
});
