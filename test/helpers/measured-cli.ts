// Runs the built `edgesim` command under GNU time for whole-process figures (peak resident memory,
// wall time), as `/usr/bin/time -v` gives them. A watchdog reads the command's resident memory from
// /proc while it runs and kills it past a bound or a time limit, so that a test of a regression that
// eats memory fails in seconds instead of taking the machine down with it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN, ROOT, type CliResult } from './cli.js';

export interface MeasuredRun extends CliResult {
  /** the process's peak resident set size (GNU time's %M) */
  peakRssBytes: number;
  wallSeconds: number;
  /** why the watchdog killed the command, or null when it ran to its end */
  killed: 'memory' | 'time' | null;
}

// GNU time's last lines: a note when the command failed or was killed, then the -f format's figures
const FIGURES = /(?:Command (?:terminated by signal|exited with non-zero status) \d+\n)?(\d+) ([\d.]+)\n$/;

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Runs `edgesim args`, killing it once it holds more than `maxRssBytes` or runs longer than `timeoutMs`. */
export function runCliMeasured(args: string[], limits: { maxRssBytes: number; timeoutMs: number }): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const time = spawn('/usr/bin/time', ['-f', '%M %e', process.execPath, BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    time.stdout.on('data', (b: Buffer) => out.push(b));
    time.stderr.on('data', (b: Buffer) => err.push(b));
    let killed: MeasuredRun['killed'] = null;
    const started = Date.now();
    const watchdog = setInterval(() => {
      try {
        const edgesim = Number(readFileSync(`/proc/${time.pid}/task/${time.pid}/children`, 'utf8').trim().split(' ')[0]);
        if (!(edgesim > 0)) return;
        if (residentBytes(edgesim) > limits.maxRssBytes) killed = 'memory';
        else if (Date.now() - started > limits.timeoutMs) killed = 'time';
        if (killed !== null) process.kill(edgesim, 'SIGKILL');
      } catch {
        // the command has just exited
      }
    }, 50);
    time.on('error', reject);
    time.on('close', (status) => {
      clearInterval(watchdog);
      const stderr = Buffer.concat(err).toString('utf8');
      const figures = FIGURES.exec(stderr);
      if (figures === null) return reject(new Error(`no figures from /usr/bin/time in: ${stderr}`));
      resolve({
        status,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: stderr.slice(0, figures.index),
        peakRssBytes: Number(figures[1]) * 1024,
        wallSeconds: Number(figures[2]),
        killed,
      });
    });
  });
}
