// synth from the library writes what `edgesim synth` writes, and a bad spec is a SpecError naming the key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecError, synth } from '../../src/lib/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('synth', () => {
  it('writes the capture and labels `edgesim synth` writes', async () => {
    const dir = tempDir('edgesim-lib-synth-');
    const lib = path.join(dir, 'lib.pcap');
    const cli = path.join(dir, 'cli.pcap');
    const r = await synth('syn-flood', lib, { packets: 2000, seed: 7 });
    expect([r.packets, r.out, r.labels]).toEqual([2000, lib, `${lib}.labels.ndjson`]);
    expect(runCli(['synth', 'syn-flood', '--packets', '2000', '--seed', '7', '--out', cli]).status).toBe(0);
    expect(readFileSync(lib).equals(readFileSync(cli))).toBe(true);
    expect(readFileSync(`${lib}.labels.ndjson`, 'utf8')).toBe(readFileSync(`${cli}.labels.ndjson`, 'utf8'));
  });

  it('names the key of a bad spec', async () => {
    const out = path.join(tempDir('edgesim-lib-synth-'), 'x.pcap');
    await expect(synth({ parts: [{ kind: 'nonsense' }] }, out)).rejects.toThrow(SpecError);
  });
});
