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
    .option('--dry-run', 'print what would be created (+), changed (~) and destroyed (-), and write nothing')
    .addHelpText('after', `
What it touches: each Advanced TCP Protection resource in the file replaces the account's; each
list the file names is created or has its items replaced (other lists are left); "rulesets"
replaces the root magic_transit ruleset. Resources absent from the file are left as they are.
Everything is checked before the first write (the file, the lists its rules use, the server's rule
limit; a server that takes ?dry_run=true also checks each list and ruleset write that way).

--dry-run sends no write: only reads, and the dry_run=true requests of a server that takes them
(asked with a read first); it says what the server checked and what was checked here only.

If a write fails part-way, or Ctrl-C / SIGTERM stops it (between two requests: the one in flight
finishes), what was already written is put back, unless someone else changed it meanwhile (it is
then named and left as they made it); the one-line message says what the account holds. An
interrupted import exits 130 (SIGINT) or 143 (SIGTERM); a second signal stops it at once.

Example:
  edgesim import examples/demo-snapshot.json --api http://127.0.0.1:8787/client/v4 --account acc1 --dry-run`)
    .action(async (file: string, flags: ImportFlags) => (await import('./action.js')).run(file, flags));
}
