import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SCENARIO_NAMES } from '../../src/cli/commands/synth/command.js';
import { SCENARIOS } from '../../src/capture/synth/index.js';
import { modulesLoaded } from '../helpers/cli-modules.js';

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

  it('loads neither the rule engine nor the capture code for --help, and no command action', () => {
    const loaded = modulesLoaded(['--help']).project;
    expect(loaded).toContain('cli/main.js');
    expect(loaded.filter((m) => m.startsWith('lang/') || m.startsWith('capture/') || m.startsWith('fields/') || m.endsWith('/action.js'))).toEqual([]);
  });

  it('loads only the action of the command that runs', () => {
    const loaded = modulesLoaded(['validate', 'tcp.dstport == 22']).project;
    expect(loaded.filter((m) => m.endsWith('/action.js'))).toEqual(['cli/commands/validate/action.js']);
  });

  it('lists in synth help exactly the scenarios the generator knows', () => {
    expect([...SCENARIO_NAMES].sort()).toEqual(Object.keys(SCENARIOS).sort());
  });
});
