// `edgesim serve`: runs the mock configuration API until SIGINT/SIGTERM, then closes cleanly
// (pending writes finish first). The base URL goes to stdout as the first line, so a script can
// read it (useful with --port 0); the human note goes to stderr.
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import type { RunningServer } from '../../api/server.js';
import { UserError } from '../../errors.js';
import { CliError } from '../errors.js';

interface ServeFlags {
  port: string;
  host: string;
  data?: string;
  inMemory?: boolean;
  token?: string;
  key?: string;
  email?: string;
}

const DEFAULT_DATA = './.edgesim-data';

function port(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) throw new CliError(`--port: ${JSON.stringify(text)} is not a port number (0-65535)`, 2);
  return Number(text);
}

async function usableDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new CliError(`--data ${dir}: the directory cannot be created or written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function start(flags: ServeFlags): Promise<RunningServer> {
  if (flags.inMemory && flags.data !== undefined) throw new CliError('give either --data DIR or --in-memory, not both', 2);
  if ((flags.key === undefined) !== (flags.email === undefined)) throw new CliError('--key and --email go together', 2);
  const p = port(flags.port);
  const data = flags.inMemory ? undefined : flags.data ?? DEFAULT_DATA;
  if (data !== undefined) await usableDirectory(data);
  const { createServer } = await import('../../api/server.js');
  try {
    const { singleCredentials } = await import('../../api/credentials.js');
    const credentials = flags.token !== undefined || flags.key !== undefined ? singleCredentials(flags) : undefined;
    return await createServer({ port: p, host: flags.host, data, credentials });
  } catch (err) {
    if (err instanceof UserError) throw err;
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? 'the address is already in use' : e.code === 'EADDRNOTAVAIL' ? 'no such local address' : e.message;
    throw new CliError(`cannot listen on ${flags.host}:${p}: ${why}`);
  }
}

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
    .action(async (flags: ServeFlags) => {
      const server = await start(flags);
      process.stdout.write(`${server.url}\n`);
      const where = flags.inMemory ? 'in memory' : `in ${flags.data ?? DEFAULT_DATA}`;
      process.stderr.write(`edgesim: API listening at ${server.url} (configuration kept ${where}); Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await server.close();
    });
}
