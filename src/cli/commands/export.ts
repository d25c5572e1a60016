// `edgesim export`: the account's whole configuration from a running API, as a snapshot file.
// Also the flags `export` and `import` share to name an API and its credentials (--token, or
// --key with --email; $EDGESIM_API_TOKEN when none is given).
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ApiTarget } from '../../config/api-client.js';
import { CliError } from '../errors.js';

/** The API flags of export and import. */
export interface ApiFlags {
  api: string;
  account: string;
  token?: string;
  key?: string;
  email?: string;
}

/** Adds --api, --account, --token, --key and --email. */
export function addApiOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--api <url>', 'the API base URL, e.g. http://127.0.0.1:8787/client/v4')
    .requiredOption('--account <id>', 'account id')
    .option('--token <token>', 'API token (default: $EDGESIM_API_TOKEN)')
    .option('--key <key>', 'API key, with --email')
    .option('--email <email>', 'the e-mail that goes with --key');
}

/** The target the flags name; $EDGESIM_API_TOKEN stands in for a missing --token. */
export function apiTarget(flags: ApiFlags): ApiTarget {
  if ((flags.key === undefined) !== (flags.email === undefined)) throw new CliError('--key and --email go together', 2);
  if (!/^https?:\/\/[^/]/.test(flags.api)) throw new CliError(`--api: ${JSON.stringify(flags.api)} is not an http(s) URL`, 2);
  const token = flags.token ?? (flags.key === undefined ? process.env.EDGESIM_API_TOKEN : undefined);
  return { url: flags.api, account: flags.account, token: token || undefined, key: flags.key, email: flags.email };
}

export function register(program: Command): void {
  addApiOptions(program.command('export').description('write the configuration of an account (from a running API) as a snapshot file'))
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action(async (flags: ApiFlags & { out?: string }) => {
      const { exportSnapshot } = await import('../../config/api-client.js');
      const snapshot = await exportSnapshot(apiTarget(flags));
      const text = `${JSON.stringify(snapshot, null, 2)}\n`;
      if (flags.out === undefined) {
        process.stdout.write(text);
        return;
      }
      try {
        await writeFile(flags.out, text);
      } catch (err) {
        throw new CliError(`${flags.out}: cannot write: ${(err as Error).message}`);
      }
    });
}
