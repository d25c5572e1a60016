// `edgesim import`: options and help; the import runs in action.ts.
import type { Command } from 'commander';
import { addApiOptions } from '../../options.js';
import type { ImportFlags } from './action.js';

export function register(program: Command): void {
  addApiOptions(
    program
      .command('import')
      .description('write a snapshot file into an account of a running API, replacing only what the file names')
      .argument('<snapshot.json>', 'the snapshot file'),
  )
    .option('--dry-run', 'print what would be created (+), changed (~) and destroyed (-), and change nothing')
    .addHelpText('after', `
What it touches: each Advanced TCP Protection resource in the file replaces the account's; each
list the file names is created or has its items replaced (other lists are left); "rulesets"
replaces the root magic_transit ruleset. Resources absent from the file are left as they are.
Everything is checked before the first write (the file, the lists its rules use, the server's rule
limit); if a write fails part-way, what was already written is put back and the error says so.

Example:
  edgesim import examples/demo-snapshot.json --api http://127.0.0.1:8787/client/v4 --account acc1 --dry-run`)
    .action(async (file: string, flags: ImportFlags) => (await import('./action.js')).run(file, flags));
}
