// Robustness: every capture of the tcpdump test suite (830 files, many deliberately malformed)
// either reads to the end or fails with a one-line CaptureError; nothing else is thrown, nothing
// hangs, and every decoded packet's byte views stay inside its frame. The files are read in a child
// process (the built reader) so that a hang is caught by a time limit and pinned on its file.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { corpusFiles, corpusPath } from './helpers/corpus.js';

interface Outcome { start?: string; file?: string; outcome?: 'read' | 'capture-error' | 'crash'; packets?: number; message?: string; problems?: string[] }

describe('the whole tcpdump corpus', () => {
  const files = corpusFiles();
  let r: SpawnSyncReturns<string>;
  let results: Outcome[] = [];
  let lastStarted: string | undefined;

  beforeAll(() => {
    r = spawnSync(process.execPath, [path.join(ROOT, 'test/capture/helpers/walk-corpus.mjs')], {
      input: files.map(corpusPath).join('\n'),
      encoding: 'utf8',
      timeout: 45_000,
      maxBuffer: 64 << 20,
    });
    const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Outcome);
    results = lines.filter((l) => l.outcome !== undefined);
    lastStarted = lines.filter((l) => l.start !== undefined).at(-1)?.start;
  }, 60_000);

  it('is read to the end without hanging (45 s for all files)', () => {
    expect(r.error, `stopped while reading ${lastStarted}`).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(results.length).toBe(files.length);
  });

  it('throws nothing but CaptureError, and CaptureError messages are one line naming the file', () => {
    expect(results.filter((o) => o.outcome === 'crash')).toEqual([]);
    for (const o of results.filter((x) => x.outcome === 'capture-error')) {
      expect(o.message).not.toContain('\n');
      expect(o.message).toContain(o.file);
    }
  });

  it('keeps every packet\'s byte views inside its frame', () => {
    expect(results.filter((o) => (o.problems ?? []).length > 0)).toEqual([]);
  });

  it('delivers the packets (the corpus holds over 10,000)', () => {
    const total = results.reduce((n, o) => n + (o.packets ?? 0), 0);
    expect(total).toBeGreaterThan(10_000);
  });
});
