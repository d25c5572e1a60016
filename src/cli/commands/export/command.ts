// `edgesim export`: options and help; the export runs in action.ts.
import type { Command } from 'commander';
import { addApiOptions } from '../../options.js';
import type { ExportFlags } from './action.js';

export function register(program: Command): void {
  addApiOptions(program.command('export').description('write the configuration of an account (from a running API) as a snapshot file'))
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .addHelpText('after', `\nExample:\n  edgesim export --api http://127.0.0.1:8787/client/v4 --account acc1 --out snapshot.json`)
    .action(async (flags: ExportFlags) => (await import('./action.js')).run(flags));
}
