// `edgesim serve`, run: the mock configuration API until SIGINT/SIGTERM, then a clean close
// (pending writes finish first). The base URL goes to stdout as the first line, so a script can read
// it; the human note goes to stderr.
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import type { RunningServer } from '../../../api/server.js';
import { systemErrorText, UsageError, UserError } from '../../../errors.js';

export interface ServeFlags {
  port: string;
  host: string;
  data?: string;
  inMemory?: boolean;
  token?: string;
  key?: string;
  email?: string;
}

import { DEFAULT_DATA } from '../../options.js';

function port(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port: ${JSON.stringify(text)} is not a port number (0-65535)`);
  return Number(text);
}

async function usableDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new UserError(`the directory cannot be created or written: ${systemErrorText(err)}`, { source: `--data ${dir}` });
  }
}

async function start(flags: ServeFlags): Promise<RunningServer> {
  if (flags.inMemory && flags.data !== undefined) throw new UsageError('give either --data DIR or --in-memory, not both');
  if ((flags.key === undefined) !== (flags.email === undefined)) throw new UsageError('--key and --email go together');
  const p = port(flags.port);
  const data = flags.inMemory ? undefined : (flags.data ?? DEFAULT_DATA);
  if (data !== undefined) await usableDirectory(data);
  const { createServer } = await import('../../../api/server.js');
  try {
    return await createServer({ port: p, host: flags.host, data, token: flags.token, key: flags.key, email: flags.email });
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot listen on ${flags.host}:${p}: ${systemErrorText(err)}`);
  }
}

export async function run(flags: ServeFlags): Promise<void> {
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
}
