// The simulator seeded from the mock API: import the demo snapshot into a running server, then
// replay with --api; the verdicts must be those of the same snapshot read from its file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer } from '../../src/api/server.js';
import { importSnapshot } from '../../src/config/import.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli, runCliAsync } from '../helpers/cli.js';

let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  server = await createServer({ port: 0 });
  const snapshot = JSON.parse(readFileSync('examples/demo-snapshot.json', 'utf8')) as Snapshot;
  await importSnapshot(snapshot, { url: server.url, account: 'demo', token: 'test-token' });
});

afterAll(async () => {
  await server.close();
});

describe('replay --api', () => {
  it('gives the same verdicts as the snapshot file the account was imported from', async () => {
    const fromFile = runCli(['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'ndjson']);
    const fromApi = await runCliAsync(['replay', 'examples/demo.pcap', '--api', server.url, '--account', 'demo', '--format', 'ndjson'], {
      env: { EDGESIM_API_TOKEN: 'test-token' },
    });
    expect(fromApi.status).toBe(0);
    expect(fromFile.status).toBe(0);
    expect(fromApi.stdout.length).toBeGreaterThan(1000);
    // a protection drop names the ATP rule or filter that set the mode: by its id, which the API
    // assigns, or by its place in the file when the file gives none; everything else is identical
    const masked = (ndjson: string): unknown[] =>
      ndjson.trim().split('\n').map((line) => {
        const v = JSON.parse(line) as { stage: string | null; rule: string | null; monitor: { rule: string } | null };
        if (v.monitor !== null) {
          expect(v.monitor.rule).not.toBeNull();
          v.monitor.rule = 'protection';
        }
        if (v.stage === 'syn_protection' || v.stage === 'tcp_flow_protection') {
          expect(v.rule).not.toBeNull();
          v.rule = 'protection';
        }
        return v;
      });
    expect(masked(fromApi.stdout)).toEqual(masked(fromFile.stdout));
  });

  it('says which account and URL failed when the API cannot serve the configuration', async () => {
    const noCreds = await runCliAsync(['replay', 'examples/demo.pcap', '--api', server.url, '--account', 'demo'], { env: { EDGESIM_API_TOKEN: '' } });
    expect(noCreds.status).toBe(1);
    expect(noCreds.stderr).toMatch(/^edgesim: /);
    expect(noCreds.stderr).not.toMatch(/\n\s+at /);
    const down = runCli(['replay', 'examples/demo.pcap', '--api', 'http://127.0.0.1:9/client/v4', '--account', 'demo', '--token', 't']);
    expect(down.status).toBe(1);
    expect(down.stderr).toContain('127.0.0.1:9');
    expect(runCli(['replay', 'examples/demo.pcap', '--api', server.url]).stderr).toMatch(/--api needs --account/);
  });
});
