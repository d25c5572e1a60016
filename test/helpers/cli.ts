// Runs the built `edgesim` command (bin/edgesim.js over dist/, built by the global setup) as a user would.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/edgesim.js');
/** ../shared beside the project's root */
export const SHARED = path.resolve(ROOT, '../shared');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The line a run says once for each bundled sample list its rules read (src/data/lists.ts
 * sampleListNote): the demo's rules read $svc.botnetcc, so every demo run says it. Tests of other
 * things read standard error without it; `sampleNotes: true` keeps it.
 */
const SAMPLE_NOTE = /^edgesim: warning: a rule reads \$svc\.[a-z_]+: edgesim's bundled SAMPLE of it \(documentation addresses, not a real feed\); give real feeds with --lists DIR\n/gm;

export function withoutSampleNotes(stderr: string): string {
  return stderr.replace(SAMPLE_NOTE, '');
}

/** `stdout`: a file descriptor to give the command as its standard output (stdout is then '') */
export function runCli(args: string[], opts: { input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv; stdout?: number; sampleNotes?: boolean } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input,
    stdio: ['pipe', opts.stdout ?? 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: opts.sampleNotes === true ? r.stderr : withoutSampleNotes(r.stderr) };
}

/** Like runCli, but without blocking this process: for tests whose server runs in the test process. */
export function runCliAsync(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: withoutSampleNotes(Buffer.concat(err).toString('utf8')) }));
  });
}
