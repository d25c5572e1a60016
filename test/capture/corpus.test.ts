// Robustness: every capture of the tcpdump test suite (830 files, many deliberately malformed)
// either reads to the end or fails with a one-line CaptureError; nothing else is thrown, nothing
// hangs, and every decoded packet's byte views stay inside its frame. The files are read in a child
// process (the built reader) so that a hang is caught and pinned on its file: each file has its own
// time limit, far above what any one needs, so a busy machine slows the whole walk without failing it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { corpusFiles, corpusPath } from './helpers/corpus.js';

interface Outcome { start?: string; file?: string; outcome?: 'read' | 'capture-error' | 'crash'; packets?: number; message?: string; problems?: string[] }

/** Longest a single file may take to read before the walk counts as hung on it. */
const PER_FILE_MS = 15_000;

interface Walk {
  outcomes: Outcome[];
  status: number | null;
  stderr: string;
  /** the file being read when the walk was stopped for taking longer than PER_FILE_MS on it */
  hungOn: string | undefined;
}

/** Reads the files in the child, stopping it when one file takes longer than PER_FILE_MS. */
function walk(files: string[]): Promise<Walk> {
  const child = spawn(process.execPath, [path.join(ROOT, 'test/capture/helpers/walk-corpus.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
  const result: Walk = { outcomes: [], status: null, stderr: '', hungOn: undefined };
  let current: string | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  const watch = (file: string): void => {
    clearTimeout(watchdog);
    current = file;
    watchdog = setTimeout(() => {
      result.hungOn = current;
      child.kill('SIGKILL');
    }, PER_FILE_MS);
  };
  createInterface({ input: child.stdout }).on('line', (line) => {
    const o = JSON.parse(line) as Outcome;
    if (o.start !== undefined) watch(o.start);
    else result.outcomes.push(o);
  });
  child.stderr.on('data', (d: Buffer) => void (result.stderr += d.toString()));
  child.stdin.end(files.map(corpusPath).join('\n'));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(watchdog);
      result.status = code;
      resolve(result);
    });
  });
}

describe('the whole tcpdump corpus', () => {
  const files = corpusFiles();
  let w: Walk;
  let results: Outcome[] = [];

  beforeAll(async () => {
    w = await walk(files);
    results = w.outcomes;
  }, 600_000);

  it(`is read to the end without hanging (${PER_FILE_MS / 1000} s for any one file)`, () => {
    expect(w.hungOn, `stopped while reading ${w.hungOn}`).toBeUndefined();
    expect(w.stderr).toBe('');
    expect(w.status).toBe(0);
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
