// `edgesim lsp` as a user (or an editor) starts it: only over standard input and output, said in one
// line otherwise; its help says what it reads and how editors start it; it ends with the protocol's
// exit, and when its input closes. Its standard output carries the protocol's frames byte for byte,
// though every line edgesim prints passes a line guard (a frame's header ends in carriage returns).
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

  it('writes the protocol\'s frames unchanged through the line guard: headers with their CRLF, diagnostics that quote a hostile line', async () => {
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: object): void => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
      child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    };
    let bytes = Buffer.alloc(0);
    const frames: Array<{ id?: number; method?: string; params?: { diagnostics?: Array<{ message: string; range: unknown }> } }> = [];
    const published = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        bytes = Buffer.concat([bytes, chunk]);
        for (;;) {
          const end = bytes.indexOf('\r\n\r\n');
          if (end < 0) return;
          const header = /^Content-Length: (\d+)$/.exec(bytes.subarray(0, end).toString('ascii'));
          if (header === null) return reject(new Error(`not a frame header: ${JSON.stringify(bytes.subarray(0, end + 4).toString())}`));
          const length = Number(header[1]);
          if (bytes.length < end + 4 + length) return;
          frames.push(JSON.parse(bytes.subarray(end + 4, end + 4 + length).toString('utf8')));
          bytes = bytes.subarray(end + 4 + length);
          if (frames.at(-1)!.method === 'textDocument/publishDiagnostics') resolve();
        }
      });
      child.once('exit', () => reject(new Error('the server ended')));
    });
    // a line a CI runner would run as a command, were it printed as a line
    const text = 'ip.src == 10.0.0.1 and "::error::x"\n';
    send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    send({ method: 'initialized', params: {} });
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///tmp/hostile.rules', languageId: 'edgesim-rules', version: 1, text } } });
    await published;
    child.kill();
    expect(frames[0]).toMatchObject({ id: 1, result: { capabilities: { hoverProvider: true } } });
    const { diagnostics } = frames.find((f) => f.method === 'textDocument/publishDiagnostics')!.params!;
    const validate = JSON.parse(runCli(['validate', '--json', text.trim()]).stdout) as { errors: Array<{ message: string }> };
    expect(validate.errors[0]!.message).toContain('"::error::x"');
    expect(diagnostics).toEqual([expect.objectContaining({ message: validate.errors[0]!.message.replace(/\n$/, ''), range: { start: { line: 0, character: 23 }, end: { line: 0, character: 35 } } })]);
  });
});
