// `edgesim serve`: options and help for the mock configuration API; the server starts in action.ts.
import type { Command } from 'commander';
import { DEFAULT_DATA } from '../../options.js';
import type { ServeFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('serve')
    .description('run the mock configuration API (Advanced TCP Protection, rulesets, lists, validate-expr)')
    .option('--port <n>', 'TCP port (0 = any free port)', '8787')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', `directory where the configuration is saved (default: ${DEFAULT_DATA})`)
    .option('--in-memory', 'keep nothing on disk')
    .option('--token <token>', 'accept only this API token (default: any well-formed credentials)')
    .option('--key <key>', 'accept only this API key, with --email')
    .option('--email <email>', 'the e-mail that goes with --key')
    .addHelpText(
      'after',
      `
The base URL is printed on stdout as the first line (useful with --port 0); Ctrl-C stops the server
after pending writes finish.

Examples:
  edgesim serve --port 8787 --data ./api-data
  edgesim serve --port 0 --in-memory --token secret`,
    )
    .action(async (flags: ServeFlags) => (await import('./action.js')).run(flags));
}
