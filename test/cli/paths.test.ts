// The one check that an output would not destroy an input or another output (replay, diff, report,
// test): a file is the same file however it is spelled — relative or absolute, through `..`, a
// symbolic link to its folder, or a hard link — whether or not it exists yet.
import fc from 'fast-check';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstClash } from '../../src/cli/paths.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = tempDir('edgesim-paths-');
const real = path.join(root, 'real');
mkdirSync(path.join(real, 'sub'), { recursive: true });
symlinkSync(real, path.join(root, 'alias'));
writeFileSync(path.join(real, 'a.pcap'), 'a');
writeFileSync(path.join(real, 'b.pcap'), 'b');
linkSync(path.join(real, 'a.pcap'), path.join(root, 'hard-a.pcap'));

/** Ways to write the path of `name` in the real folder (`hard` only where the file exists and is a.pcap). */
function spellings(name: string): string[] {
  const list = [
    path.join(real, name),
    path.join(root, 'alias', name),
    path.join(real, 'sub', '..', name),
    path.relative(process.cwd(), path.join(real, name)),
    path.join(root, 'alias', 'sub', '..', name),
  ];
  return name === 'a.pcap' ? [...list, path.join(root, 'hard-a.pcap')] : list;
}

describe('firstClash', () => {
  it('finds an output that is an input or an earlier output however either is spelled', () => {
    const name = fc.constantFrom('a.pcap', 'new.json');
    fc.assert(
      fc.property(name, fc.nat(), fc.nat(), fc.boolean(), (file, i, j, asInput) => {
        const all = spellings(file);
        const [x, y] = [all[i % all.length]!, all[j % all.length]!];
        const clash = asInput ? firstClash([['the capture', x]], [['--out', y]]) : firstClash([], [['--out', x], ['--json', y]]);
        expect(clash).toEqual({ output: asInput ? 0 : 1, other: asInput ? 'the capture' : '--out' });
      }),
    );
  });

  it('lets different files through, and standard output any number of times', () => {
    expect(firstClash([['the capture', path.join(real, 'a.pcap')]], [['--out', path.join(root, 'alias', 'b.pcap')], ['--json', path.join(real, 'new.json')]])).toBeNull();
    expect(firstClash([['the capture', '-']], [['--out', '-'], ['--json', '-'], ['--junit', undefined]])).toBeNull();
  });
});
