// End to end: `edgesim fields` as a user runs it.
import { describe, expect, it } from 'vitest';
import { FIELD_REFERENCE } from '../../src/fields/reference.js';
import { runCli } from '../helpers/cli.js';

describe('edgesim fields', () => {
  it('prints a table with every field, one row start per field', () => {
    const r = runCli(['fields']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^FIELD +TYPE +UNIT +MEANING$/);
    const starts = lines.slice(1).filter((l) => l !== '' && !l.startsWith(' ')).map((l) => l.split(/ +/)[0]);
    expect(starts).toEqual(FIELD_REFERENCE.map((f) => f.name));
    expect(lines.find((l) => l.startsWith('ip.hdr_len'))).toMatch(/^ip\.hdr_len +Int +32-bit words +IPv4 header length/);
  });

  it('--json prints the reference; a name narrows it to that field and those under it', () => {
    expect(JSON.parse(runCli(['fields', '--json']).stdout)).toEqual(FIELD_REFERENCE);
    const flags = JSON.parse(runCli(['fields', '--json', 'tcp.flags']).stdout) as { name: string }[];
    expect(flags.map((f) => f.name)).toEqual(FIELD_REFERENCE.filter((f) => f.name.startsWith('tcp.flags')).map((f) => f.name));
    expect(flags).toHaveLength(9);
  });

  it('an unknown name is an error, exit 1', () => {
    const r = runCli(['fields', 'tcp.port']);
    expect([r.status, r.stdout, r.stderr]).toEqual([1, '', 'edgesim: no field named tcp.port (edgesim fields lists them all)\n']);
  });
});
