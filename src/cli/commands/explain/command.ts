// `edgesim explain EXPR`: like Wireshark's dftest — the tokens with byte offsets, the typed syntax
// tree, and what each comparison compiles to. An invalid expression prints the engine's error
// message on stdout and exits 1, as `validate` does.
import type { Command } from 'commander';
import { schemeOption } from '../../options.js';
import type { ExplainFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('explain')
    .description('show the tokens, typed syntax tree and compiled plan of a Rules-language expression')
    .argument('[expression]', 'the expression; "-" or nothing reads it from stdin')
    .addOption(schemeOption())
    .addHelpText('after', `\nExample:\n  edgesim explain 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {80 443}'`)
    .action(async (arg: string | undefined, flags: ExplainFlags) => (await import('./action.js')).run(arg, flags));
}
