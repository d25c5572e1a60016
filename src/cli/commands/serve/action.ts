// `edgesim serve`, run: the mock configuration API until SIGINT/SIGTERM, then a clean close
// (pending writes finish first). The base URL goes to stdout as the first line, so a script can read
// it; the human notes (where the configuration is kept, who may use it) go to stderr.
import type { CredentialTable } from '../../../api/credentials.js';
import type { RunningServer } from '../../../api/server.js';
import { systemErrorText, UsageError, UserError } from '../../../errors.js';
import { DEFAULT_DATA } from '../../options.js';

export interface ServeFlags {
  port: string;
  host: string;
  data?: string;
  inMemory?: boolean;
  credentials?: string;
  token?: string;
  key?: string;
  email?: string;
  maxRules: string;
}

function port(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port: ${JSON.stringify(text)} is not a port number (0-65535)`);
  return Number(text);
}

function whole(flag: string, text: string, min: number, max: number): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a whole number from ${min} to ${max}`);
  return Number(text);
}

async function credentialsOf(flags: ServeFlags): Promise<CredentialTable | undefined> {
  const { loadCredentialsFile, singleCredentials } = await import('../../../api/credentials.js');
  if (flags.credentials !== undefined) {
    if (flags.token !== undefined || flags.key !== undefined) throw new UsageError('give either --credentials FILE or --token/--key, not both');
    return loadCredentialsFile(flags.credentials);
  }
  return flags.token !== undefined || flags.key !== undefined ? singleCredentials(flags) : undefined;
}

function accessNote(flags: ServeFlags, credentials: CredentialTable | undefined): string {
  if (credentials === undefined) return 'open mode: any well-formed credentials may read and write every account (--credentials FILE restricts them)';
  if (flags.credentials !== undefined) return `credentials from ${flags.credentials}: ${credentials.tokens.length} token(s), ${credentials.keys.length} key(s), each limited to its accounts`;
  return 'only the given --token/--key are accepted, for every account';
}

async function start(flags: ServeFlags): Promise<{ server: RunningServer; credentials: CredentialTable | undefined }> {
  if (flags.inMemory && flags.data !== undefined) throw new UsageError('give either --data DIR or --in-memory, not both');
  if ((flags.key === undefined) !== (flags.email === undefined)) throw new UsageError('--key and --email go together');
  const p = port(flags.port);
  const maxRules = whole('--max-rules', flags.maxRules, 1, 100_000);
  const credentials = await credentialsOf(flags);
  const data = flags.inMemory ? undefined : (flags.data ?? DEFAULT_DATA);
  const [{ createServer }, { registerPlayground }] = await Promise.all([import('../../../api/server.js'), import('../../../playground/route.js')]);
  // the playground reads accounts through the API at the address the server listens on
  let apiUrl = '';
  try {
    const server = await createServer({ port: p, host: flags.host, data, credentials, maxRules, pages: (app) => registerPlayground(app, () => apiUrl) });
    apiUrl = server.url;
    return { server, credentials };
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot listen on ${flags.host}:${p}: ${systemErrorText(err)}`);
  }
}

export async function run(flags: ServeFlags): Promise<void> {
  const { server, credentials } = await start(flags);
  process.stdout.write(`${server.url}\n`);
  const where = flags.inMemory ? 'in memory' : `in ${flags.data ?? DEFAULT_DATA}`;
  const playground = server.url.replace(/\/client\/v4$/, '/playground');
  process.stderr.write(`edgesim: API listening at ${server.url} (configuration kept ${where}), the playground at ${playground}; Ctrl-C stops it\n`);
  process.stderr.write(`edgesim: ${accessNote(flags, credentials)}\n`);
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
