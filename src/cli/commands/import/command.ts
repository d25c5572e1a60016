// `edgesim import`: options and help; the import runs in action.ts.
import type { Command } from 'commander';
import { addApiOptions, type ApiFlags } from '../../options.js';

export function register(program: Command): void {
  addApiOptions(
    program
      .command('import')
      .description("write a snapshot file into an account of a running API (each resource in the file replaces the account's)")
      .argument('<snapshot.json>', 'the snapshot file'),
  )
    .addHelpText('after', `\nResources absent from the file are left as they are.\n\nExample:\n  edgesim import examples/demo-snapshot.json --api http://127.0.0.1:8787/client/v4 --account acc1`)
    .action(async (file: string, flags: ApiFlags) => (await import('./action.js')).run(file, flags));
}
