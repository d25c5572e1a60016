// `edgesim pin` end to end: the demo configuration's pinned suite (with the demo capture and its
// golden file) passes `edgesim test` as written, names each rule's case after it, lists the
// disabled rule with why, and the command refuses to write over what it reads.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, tempDir } from '../suite/helpers.js';

describe('edgesim pin', () => {
  it('writes a suite of the demo that passes as written, with the capture and its golden file', () => {
    const dir = tempDir();
    const out = path.join(dir, 'pinned.yaml');
    const pin = runCli(['pin', DEMO_CONFIG, '--out', out, '--capture', DEMO_PCAP]);
    expect(pin.status, pin.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('- name: "allow-partners: Partner ranges are always allowed"');
    expect(text).toMatch(/#\s+block-fragments \(demo edge_transit, block\): disabled/);
    expect(text).toContain('space: {');
    expect(existsSync(path.join(dir, 'pinned.golden.ndjson'))).toBe(true);
    const test = runCli(['test', out]);
    expect(test.status, test.stdout).toBe(0);
    expect(test.stdout).toMatch(/(\d+) cases: \1 passed, 0 failed, 0 errors/);
  });

  it('takes --config, and writes to standard output without --out', () => {
    const pin = runCli(['pin', '--config', DEMO_CONFIG]);
    expect(pin.status, pin.stderr).toBe(0);
    expect(pin.stdout).toMatch(/^config: .*demo-snapshot\.json$/m);
  });

  it('refuses to write over the configuration', () => {
    const pin = runCli(['pin', DEMO_CONFIG, '--out', DEMO_CONFIG]);
    expect(pin.status).toBe(2);
    expect(pin.stderr.trim().split('\n')).toHaveLength(1);
    expect(pin.stderr).toContain('the same file as the configuration');
  });
});
