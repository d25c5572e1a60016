// `edgesim lsp`, run: the language server over standard input and output until the editor ends it
// (the protocol's exit, or standard input closing). Standard output carries the protocol only, so
// anything written to the console goes to standard error instead.
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
  await runServer(process.stdin, process.stdout, { maxRules: flags.maxRules, lists: flags.lists, capture: flags.capture });
}
