// Ctrl-C or SIGTERM on a replay of an endless standard input: the replay stops reading, finishes its
// outputs and prints the summary of what it replayed, saying it was interrupted (as tcpdump and tshark
// do), then exits 128 + the signal's number. Run as a user would: a generator process writes pcap
// records without end into a real `edgesim replay -`, which is sent the signal mid-stream.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../src/capture/reader.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runTool } from '../helpers/tshark.js';

const GENERATOR = path.join(ROOT, 'test/cli/helpers/endless-capture.mjs');
const DEMO = path.join(ROOT, 'examples/demo.pcap');
const SNAPSHOT = path.join(ROOT, 'examples/demo-snapshot.json');

interface Interrupted {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `edgesim replay - …args` on an endless capture (or on `rounds` of the demo capture, then
 * nothing), sends `signal` once `ready()` holds, and waits for it to end.
 */
function replayUntilSignal(args: string[], signal: NodeJS.Signals, ready: () => boolean, rounds?: number): Promise<Interrupted> {
  const generator = spawn(process.execPath, [GENERATOR, DEMO, ...(rounds === undefined ? [] : [String(rounds)])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const replay = spawn(process.execPath, [BIN, 'replay', '-', '--config', SNAPSHOT, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  generator.stdout.pipe(replay.stdin);
  replay.stdin.on('error', () => undefined); // the replay closed its input
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  replay.stdout.on('data', (b: Buffer) => out.push(b));
  replay.stderr.on('data', (b: Buffer) => err.push(b));
  const poll = setInterval(() => {
    if (ready()) {
      clearInterval(poll);
      replay.kill(signal);
    }
  }, 50);
  return new Promise((resolve) => {
    replay.on('close', (status) => {
      clearInterval(poll);
      generator.kill();
      resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** the records of a pcap file, read by the project's reader, which must find it whole */
async function pcapRecords(file: string): Promise<number> {
  const info = await readCapture(file, () => undefined);
  expect(info.warnings, file).toEqual([]);
  return info.packets;
}

/** the records of a pcap file as capinfos counts them; capinfos must read it without complaint */
function capinfosRecords(file: string): number {
  const r = runTool('capinfos', ['-c', '-M', '-T', '-r', file]);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/cut short|error/i);
  return Number(r.stdout.trim().split('\t')[1]);
}

describe('edgesim replay interrupted', () => {
  for (const [signal, exitCode] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`on ${signal}: finishes every output, prints the summary of what it replayed and says it was interrupted`, async () => {
      const dir = tempDir('edgesim-interrupt-');
      const verdicts = path.join(dir, 'verdicts.ndjson');
      const dropped = path.join(dir, 'd.pcap');
      const passed = path.join(dir, 'p.pcap');
      // past the pcap writer's first megabyte, so a file cut at its last flush would show
      const r = await replayUntilSignal(['--format', 'ndjson', '--out', verdicts, '--write-dropped', dropped, '--write-passed', passed], signal, () => sizeOf(dropped) > 3 << 20);
      expect(r.status, r.stderr).toBe(exitCode);
      expect(r.stderr).toMatch(new RegExp(`^edgesim: warning: interrupted by ${signal}: the report covers the first [\\d,]+ packets of the capture$`, 'm'));
      const summary = /^edgesim: ([\d,]+) packets: ([\d,]+) passed, ([\d,]+) dropped$/m.exec(r.stderr);
      expect(summary, r.stderr).not.toBeNull();
      const [packets, passes, drops] = summary!.slice(1).map((n) => Number(n.replace(/,/g, '')));
      const rows = readFileSync(verdicts, 'utf8').split('\n');
      expect(rows.pop()).toBe(''); // the last line is whole
      const verdictsOf = rows.map((line) => (JSON.parse(line) as { verdict: string }).verdict);
      expect(verdictsOf.length).toBe(packets);
      expect(verdictsOf.filter((v) => v === 'drop').length).toBe(drops);
      expect(drops).toBeGreaterThan(50_000);
      expect(await pcapRecords(dropped)).toBe(drops);
      expect(await pcapRecords(passed)).toBe(passes);
      expect(capinfosRecords(dropped)).toBe(drops);
      expect(capinfosRecords(passed)).toBe(passes);
    });
  }

  it('stops while it waits for input that does not come', async () => {
    const dir = tempDir('edgesim-interrupt-');
    const dropped = path.join(dir, 'd.pcap');
    const started = Date.now();
    const r = await replayUntilSignal(['--format', 'csv', '--out', path.join(dir, 'v.csv'), '--write-dropped', dropped], 'SIGINT', () => Date.now() - started > 2500, 1);
    expect(r.status, r.stderr).toBe(130);
    expect(r.stderr).toContain('edgesim: warning: interrupted by SIGINT: the report covers the first 4,526 packets of the capture\n');
    expect(r.stderr).toContain('edgesim: 4,526 packets: 3,148 passed, 1,378 dropped\n');
    expect(await pcapRecords(dropped)).toBe(1378);
  });

  it('prints the table summary of what it replayed, saying it was interrupted', async () => {
    const started = Date.now();
    const r = await replayUntilSignal([], 'SIGINT', () => Date.now() - started > 2000);
    expect(r.status, r.stderr).toBe(130);
    const head = /^standard input \(pcap\): ([\d,]+) packets/.exec(r.stdout);
    expect(head, r.stdout).not.toBeNull();
    expect(r.stdout).toContain(`warning: interrupted by SIGINT: the report covers the first ${head![1]} packets of the capture`);
    expect(r.stdout).toMatch(/│ drop +│ [\d,]+ +│/);
  });
});
