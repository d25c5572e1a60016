import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('edgesim command', () => {
  it('prints help listing its subcommands and exits 0', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: edgesim');
    expect(r.stdout).toContain('about');
  });

  it('rejects an unknown subcommand with a usage error and a non-zero exit', () => {
    const r = runCli(['no-such-command']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("unknown command 'no-such-command'");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('shows the data attribution the GeoIP licence asks for', () => {
    const r = runCli(['about']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/CC BY 4\.0/);
    expect(r.stdout).toMatch(/edgesim \d+\.\d+\.\d+/);
  });
});
