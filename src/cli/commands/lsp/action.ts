// `edgesim lsp`, run: the language server over standard input and output until the editor ends it
// (the protocol's exit, or standard input closing). Standard output carries the protocol only, so
// anything written to the console goes to standard error instead (guarded as every line edgesim
// prints). The protocol's frames are bytes the server counts (`Content-Length: N\r\n\r\n` and N bytes
// of JSON, whose strings JSON escapes): they go to standard output as buffers, which its line guard
// passes as they are (cli/standard-streams.ts); written as text, the guard would escape the header's
// carriage returns and no client could read a frame.
import { Writable } from 'node:stream';
import { UsageError } from '../../../errors.js';

export interface LspFlags {
  stdio?: boolean;
  maxRules?: number;
  lists?: string;
  capture?: string;
}

export async function run(flags: LspFlags): Promise<void> {
  if (flags.stdio !== true) throw new UsageError('edgesim lsp speaks over standard input and output: run it as edgesim lsp --stdio (editors start it so)');
  for (const method of ['log', 'info', 'debug'] as const) console[method] = (...args: unknown[]) => console.error(...args);
  const { runServer } = await import('../../../lsp/server.js');
  await runServer(process.stdin, protocolOutput(), { maxRules: flags.maxRules, lists: flags.lists, capture: flags.capture });
}

/** Standard output for the protocol: every chunk, text or not, written as bytes (a Writable turns text into a Buffer). */
function protocolOutput(): Writable {
  const output = new Writable({
    decodeStrings: true,
    write: (chunk: Buffer, _encoding, done) => void process.stdout.write(chunk, (err) => done(err ?? undefined)),
    final: (done) => done(),
  });
  process.stdout.on('error', (err) => output.destroy(err));
  return output;
}
