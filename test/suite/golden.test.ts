// Golden files are the one thing `edgesim test` writes into a suite's folder, and the reports it
// writes may destroy nothing the run reads: a golden lives under the suite's folder (no `..`, no
// absolute path, no symbolic link out), never is an input or another case's golden, is not a folder,
// and is replaced by a rename (a hard link to the old golden keeps the old content; no torn file);
// --json and --junit are refused on the suite, its configuration, a capture or a golden.
import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, tempDir } from './helpers.js';

/** A folder holding a copy of the demo's configuration and capture, and a suite whose one capture case names `golden`. */
function suiteWithGolden(golden: string, more = ''): { dir: string; suite: string } {
  const dir = path.join(tempDir(), 'suite');
  mkdirSync(dir);
  copyFileSync(DEMO_CONFIG, path.join(dir, 'config.json'));
  copyFileSync(DEMO_PCAP, path.join(dir, 'demo.pcap'));
  const suite = path.join(dir, 'suite.yaml');
  writeFileSync(suite, `config: config.json\ncases:\n  - name: demo\n    capture: demo.pcap\n    expect:\n      golden: ${JSON.stringify(golden)}\n${more}`);
  return { dir, suite };
}

/** What a folder holds: each file's content, each link's target, each folder by its name. */
function contents(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => {
      const p = path.join(dir, f);
      const st = lstatSync(p);
      return [f, st.isSymbolicLink() ? `-> ${readlinkSync(p)}` : st.isDirectory() ? '(folder)' : readFileSync(p, 'latin1')];
    }),
  );
}

describe('where a golden file may be', () => {
  const refused: Array<[string, (dir: string) => string, RegExp]> = [
    ['above the suite', () => '../verdicts.ndjson', /"\.\.\/verdicts\.ndjson" is not under the suite's folder$/],
    ['an absolute path', (dir) => path.join(dir, 'verdicts.ndjson'), /a golden file lives under the suite's folder: give its path relative to the suite$/],
    [
      'a symbolic link to a file outside',
      (dir) => {
        writeFileSync(path.join(dir, '..', 'unrelated.txt'), 'unrelated\n');
        symlinkSync('../unrelated.txt', path.join(dir, 'link.ndjson'));
        return 'link.ndjson';
      },
      /"link\.ndjson" is a symbolic link/,
    ],
    [
      'under a folder that links outside',
      (dir) => {
        mkdirSync(path.join(dir, '..', 'elsewhere'));
        symlinkSync('../elsewhere', path.join(dir, 'goldens'));
        return 'goldens/verdicts.ndjson';
      },
      /"goldens\/verdicts\.ndjson" leads out of the suite's folder through a symbolic link$/,
    ],
    ['the capture', () => 'demo.pcap', /"demo\.pcap" is the same file as the capture of case "demo"/],
    ['the capture, spelled otherwise', () => 'sub/../demo.pcap', /is the same file as the capture of case "demo"/],
    ['the configuration', () => 'config.json', /"config\.json" is the same file as the configuration of .*suite\.yaml/],
    ['the suite', () => 'suite.yaml', /"suite\.yaml" is the same file as the suite /],
    [
      'a folder',
      (dir) => {
        mkdirSync(path.join(dir, 'goldens'));
        return 'goldens';
      },
      /"goldens" is a folder$/,
    ],
  ];

  for (const [what, golden, message] of refused) {
    it(`refuses a golden file that is ${what}, at its line, and writes nothing`, () => {
      const { dir, suite } = suiteWithGolden('x');
      const name = golden(dir);
      writeFileSync(suite, readFileSync(suite, 'utf8').replace('"x"', JSON.stringify(name)));
      const parent = path.dirname(dir);
      const before = [contents(dir), contents(parent)];
      for (const args of [['--update'], []]) {
        const r = runCli(['test', suite, ...args]);
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(new RegExp(`^edgesim: ${suite.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: cases\\[0\\]\\.expect\\.golden: `));
        expect(r.stderr.trimEnd()).toMatch(message);
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      }
      expect([contents(dir), contents(parent)]).toEqual(before);
    });
  }

  it("refuses two cases sharing a golden file, at the second one's line", () => {
    const { suite } = suiteWithGolden('verdicts.ndjson', '  - name: again\n    capture: demo.pcap\n    expect: {golden: verdicts.ndjson}\n');
    const r = runCli(['test', suite, '--update']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${suite}:9: cases[1].expect.golden: "verdicts.ndjson" is the same file as the golden file of case "demo"`);
  });

  it('takes a golden file in a folder under the suite, and creates it', () => {
    const { dir, suite } = suiteWithGolden('goldens/verdicts.ndjson');
    mkdirSync(path.join(dir, 'goldens'));
    const r = runCli(['test', suite, '--update']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('golden goldens/verdicts.ndjson: created (4,526 frames)');
    expect(readFileSync(path.join(dir, 'goldens/verdicts.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(4526);
    expect(runCli(['test', suite]).status).toBe(0);
  });
});

describe('rewriting a golden file', () => {
  it('names the golden file, not its temporary file, when its folder is missing', () => {
    const { suite } = suiteWithGolden('goldens/verdicts.ndjson');
    const r = runCli(['test', suite, '--update']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^ERROR demo: .*\/suite\/goldens\/verdicts\.ndjson: cannot write: no such file /m);
  });

  it('replaces the file by a rename: the old content is never written over in place, and no temporary file is left', () => {
    const { dir, suite } = suiteWithGolden('verdicts.ndjson');
    expect(runCli(['test', suite, '--update']).status).toBe(0);
    const golden = path.join(dir, 'verdicts.ndjson');
    const stale = readFileSync(golden, 'utf8').replace(/"verdict":"pass"/g, '"verdict":"drop"');
    writeFileSync(golden, stale);
    const kept = path.join(path.dirname(dir), 'kept.ndjson');
    linkSync(golden, kept);
    const r = runCli(['test', suite, '--update']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('golden verdicts.ndjson: 3,148 frames changed, rewritten');
    expect(readFileSync(kept, 'utf8')).toBe(stale);
    expect(readFileSync(golden, 'utf8')).not.toBe(stale);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'demo.pcap', 'suite.yaml', 'verdicts.ndjson']);
    expect(runCli(['test', suite]).status).toBe(0);
  });
});

describe('reports that would overwrite a file of the run', () => {
  for (const flag of ['--json', '--junit']) {
    for (const [what, file, other] of [
      ['the suite', 'suite.yaml', /the suite/],
      ['the configuration', 'config.json', /the configuration of .*suite\.yaml/],
      ['a capture', 'demo.pcap', /the capture of case "demo"/],
      ['a golden file', 'verdicts.ndjson', /the golden file of case "demo"/],
    ] as const) {
      it(`refuses ${flag} on ${what}, before any case runs`, () => {
        const { dir, suite } = suiteWithGolden('verdicts.ndjson');
        expect(runCli(['test', suite, '--update']).status).toBe(0);
        const before = contents(dir);
        const r = runCli(['test', suite, flag, path.join(dir, file)]);
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(new RegExp(`^edgesim: ${flag} .*${file.replace('.', '\\.')}: the same file as ${other.source}; give each output its own file\\n$`));
        expect(contents(dir)).toEqual(before);
      });
    }
  }
});
