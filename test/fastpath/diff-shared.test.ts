// `edgesim diff` reads a capture once for two configurations: each frame is decided on both compiled
// paths, each in a run of its own, on the compiled lane where each can (sim/diff.ts). Checked here against two reference runs (decoder + evaluator, no fast path) over part of
// the tcpdump corpus and a synthetic capture: the same changed frames, with the same decisions on
// each side. One side also holds a rule on a looked-up field, so one ruleset falls back where the
// other decides from the bytes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import { compilePath } from '../../src/sim/build.js';
import { diffCapture, type Decision } from '../../src/sim/diff.js';
import { OpenCapture } from '../../src/sim/packet-loop.js';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { FIELDS, type Rule, rulesets, run } from './helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

const BEFORE: Rule[] = FIELDS.filter(([ref]) => ref !== 'list');
const AFTER: Rule[] = [
  ['country', 'log', 'ip.src.country == "US"'],
  ...BEFORE.map(([ref, action, expression]): Rule => (ref === 'telnet' ? [ref, 'log', expression] : ref === 'dns' ? [ref, 'skip', expression] : [ref, action, expression])),
  ['late-block', 'block', 'ip.proto == "udp" and udp.srcport > 1024'],
];

interface Line { frame: number; verdict: string; rule: string | null; stage: string | null }

async function reference(file: string, rules: Rule[]): Promise<Line[]> {
  const r = await run(file, rules, { mode: 'reference' });
  return r.ndjson.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

function key(d: Line | Decision): string {
  return `${d.verdict}/${d.rule}/${d.stage}`;
}

describe('diff with both rulesets on the fast path', () => {
  it('finds the frames two reference runs decide differently, with their decisions', async () => {
    const dir = tempDir('edgesim-diff-shared-');
    const synthetic = path.join(dir, 'mixed.pcap');
    await generateToFile('mixed', synthetic, { packets: 3000, seed: 5, labels: null });
    const files = [synthetic, ...corpusFiles().filter((_, i) => i % 4 === 0).map(corpusPath)];
    const before = await compilePath({ rulesets: rulesets(BEFORE) });
    const after = await compilePath({ rulesets: rulesets(AFTER) });
    let changedSomewhere = 0;
    for (const file of files) {
      const a = await reference(file, BEFORE).catch(() => null);
      if (a === null) continue; // a capture that cannot be read: diff reports the same error, tested elsewhere
      const b = await reference(file, AFTER);
      const expected = a.filter((x, i) => key(x) !== key(b[i]!)).map((x, i) => `${x.frame} ${key(x)} -> ${key(b.find((y) => y.frame === x.frame)!)}`);
      const got: string[] = [];
      const result = await diffCapture(await OpenCapture.open(file), before, after, {
        onChange: (v, x, y) => got.push(`${v.record.frame} ${key(x)} -> ${key(y)}`),
      });
      expect(got, file).toEqual(expected);
      expect(result.changed).toBe(expected.length);
      expect(result.packets).toBe(a.length);
      if (got.length > 0) changedSomewhere++;
    }
    expect(changedSomewhere).toBeGreaterThan(10);
  });
});
