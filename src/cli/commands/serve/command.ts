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
    .option('--data <dir>', `directory where the configuration is saved, used by one serve at a time (default: ${DEFAULT_DATA})`)
    .option('--in-memory', 'keep nothing on disk')
    .option('--credentials <file>', 'who may read and write which account (JSON, see below; default: open mode)')
    .option('--token <token>', 'accept only this API token, for every account')
    .option('--key <key>', 'accept only this API key, with --email, for every account')
    .option('--email <email>', 'the e-mail that goes with --key')
    .option('--max-rules <n>', "rules per ruleset (the vendor's default maximum)", '200')
    .addHelpText(
      'after',
      `
The base URL is printed on stdout as the first line (useful with --port 0); Ctrl-C stops the server
after pending writes finish. http://HOST:PORT/playground is a page to write an expression with the
editor's diagnostics and completion, and to trace a packet through an account's configuration.

Open mode (the default, for local work): any well-formed credentials (Authorization: Bearer <token>,
or X-Auth-Email with X-Auth-Key) may read and write every account; serve says so when it starts.
--credentials FILE limits each token and key + e-mail to its accounts; anything else is a 403:
  {
    "tokens": [{"token": "T1", "accounts": {"acc1": "write", "acc2": "read"}}],
    "keys":   [{"email": "ops@example.com", "key": "K1", "accounts": {"*": "read"}}]
  }
"write" includes reading; reading is GET, every other method writes; "*" is every account, and an
account's own entry wins over "*".

Rulesets and lists take ?dry_run=true on every write, as the vendor's Rulesets API does: the same
credentials and checks, nothing kept, "result": null (a 204 stays a 204); any value but true or
false is a 400, on a read too (which is how a client asks whether dry_run is taken).

Examples:
  edgesim serve --port 8787 --data ./api-data
  edgesim serve --port 0 --in-memory --token secret
  edgesim serve --credentials credentials.json --max-rules 1000`,
    )
    .action(async (flags: ServeFlags) => (await import('./action.js')).run(flags));
}
