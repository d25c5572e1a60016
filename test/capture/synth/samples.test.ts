// The committed sample captures must be what pcaps/README.md says: running each command it gives
// makes the same pcap and label sidecar, byte for byte.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readme = readFileSync(path.join(ROOT, 'pcaps/README.md'), 'utf8');
const commands = [...readme.matchAll(/`edgesim (synth [^`]*--out ((?:pcaps|examples)\/\S+))`/g)].map((m) => ({ args: m[1]!.split(' '), file: m[2]! }));

describe('sample captures', () => {
  it('are all listed with their command', () => {
    expect(commands.map((c) => c.file).sort()).toEqual(
      ['examples/demo.pcap', 'pcaps/ack-flood.pcap', 'pcaps/geo.pcap', 'pcaps/handshakes.pcap', 'pcaps/mixed.pcap', 'pcaps/syn-flood.pcap'],
    );
  });

  it.each(commands)('$file is remade byte for byte by its command', ({ args, file }) => {
    const out = path.join(dir, path.basename(file));
    const r = runCli(args.map((a) => (a === file ? out : a)));
    expect(r.stderr).toMatch(/^edgesim: wrote /);
    expect(r.status).toBe(0);
    expect(readFileSync(out).equals(readFileSync(path.join(ROOT, file)))).toBe(true);
    expect(readFileSync(`${out}.labels.ndjson`).equals(readFileSync(path.join(ROOT, `${file}.labels.ndjson`)))).toBe(true);
    expect(readFileSync(out).length).toBeLessThan(file.startsWith('pcaps/') ? 400_000 : 1_000_000);
  });
});
