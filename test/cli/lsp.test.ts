// `edgesim lsp` as a user (or an editor) starts it: only over standard input and output, said in one
// line otherwise; its help says what it reads and how editors start it; it ends with the protocol's
// exit, and when its input closes.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

describe('edgesim lsp', () => {
  it('speaks over stdio only: without --stdio it is a usage error, one line', () => {
    expect(runCli(['lsp'])).toEqual({ status: 2, stdout: '', stderr: 'edgesim: edgesim lsp speaks over standard input and output: run it as edgesim lsp --stdio (editors start it so)\n' });
    const help = runCli(['lsp', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--stdio');
    expect(help.stdout).toContain('# edgesim: capture=PATH');
  });

  it('ends when its standard input closes (the editor went away)', async () => {
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    // no shutdown was asked: the protocol's exit status for that is 1
    expect(await exited).toBe(1);
  });
});
