// The example suite in examples/ is what the README points people to: it must pass on the demo
// configuration, and its golden file must be exactly what the replay writes today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP } from './helpers.js';

describe('examples/demo-suite.yaml', () => {
  it('the bundled example suite passes (the project runs its own example)', () => {
    const r = runCli(['test', 'examples/demo-suite.yaml', '--strict']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^12 cases: 12 passed, 0 failed, 0 errors$/m);
    expect(readFileSync(new URL('../../examples/demo.verdicts.ndjson', import.meta.url), 'utf8')).toBe(runCli(['replay', DEMO_PCAP, '--config', DEMO_CONFIG, '--format', 'ndjson']).stdout);
  });
});
