// `edgesim test --config FILE`: every suite runs against the configuration given instead of the one
// it names (a suite pinned from today's configuration, run against a proposed change), a suite may
// then leave out `config:`, and no report may be written over a --config file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, tempDir } from './helpers.js';

/** The demo configuration with the partners' allow rule turned into a block. */
function changedConfig(dir: string): string {
  const snapshot = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8'));
  const rule = snapshot.rulesets[0].rules.find((r: { ref: string }) => r.ref === 'allow-partners');
  rule.action = 'block';
  delete rule.action_parameters;
  const file = path.join(dir, 'proposed config.json');
  writeFileSync(file, JSON.stringify(snapshot));
  return file;
}

describe('edgesim test --config', () => {
  it('runs a suite against the configuration given, not the one it names', () => {
    const dir = tempDir();
    const suite = path.join(dir, 'pinned.yaml');
    expect(runCli(['pin', DEMO_CONFIG, '--out', suite]).status).toBe(0);
    const proposed = changedConfig(dir);
    expect(runCli(['test', suite]).status).toBe(0);
    const changed = runCli(['test', suite, '--config', proposed]);
    expect(changed.status, changed.stderr).toBe(1);
    expect(changed.stdout).toContain('FAIL  allow-partners: Partner ranges are always allowed: verdict: expected pass, got drop');
  });

  it('needs no `config:` in the suite then, and says what is missing without it', () => {
    const dir = tempDir();
    const suite = path.join(dir, 'bare.yaml');
    writeFileSync(suite, 'cases:\n  - name: partners pass\n    packet: {ip.src: 192.0.2.1, tcp.dstport: 22}\n    expect: {verdict: pass, rule: allow-partners}\n');
    const given = runCli(['test', suite, '--config', DEMO_CONFIG]);
    expect(given.status, given.stdout + given.stderr).toBe(0);
    expect(given.stdout).toMatch(/1 case: 1 passed/);
    const blocked = runCli(['test', suite, '--config', changedConfig(dir)]);
    expect(blocked.status).toBe(1);
    const none = runCli(['test', suite]);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(`edgesim: ${suite}:1: config: missing: name the configuration (a file or a list of files, relative to the suite) or write it inline\n`);
  });

  it('refuses a report over a --config file, and standard input twice', () => {
    const dir = tempDir();
    const suite = path.join(dir, 'bare.yaml');
    writeFileSync(suite, 'cases:\n  - name: partners pass\n    packet: {ip.src: 192.0.2.1}\n    expect: {verdict: pass}\n');
    const proposed = changedConfig(dir);
    const before = readFileSync(proposed, 'utf8');
    const over = runCli(['test', suite, '--config', proposed, '--json', proposed]);
    expect(over.status).toBe(2);
    expect(over.stderr).toBe(`edgesim: --json ${proposed}: the same file as --config; give each output its own file\n`);
    expect(readFileSync(proposed, 'utf8')).toBe(before);
    const twice = runCli(['test', '-', '--config', '-'], { input: 'cases: []' });
    expect(twice.status).toBe(2);
    expect(twice.stderr).toBe('edgesim: standard input (-) can be read once: give - as a suite or to --config, not both\n');
  });

  it('names the --config file when it cannot be read, before any suite runs', () => {
    const dir = tempDir();
    const missing = path.join(dir, 'missing.json');
    const r = runCli(['test', path.join(dir, 'any.yaml'), '--config', missing]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`edgesim: ${missing}: cannot read the configuration: no such file\n`);
  });
});
