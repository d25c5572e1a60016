// The one model of errors meant for the person at the terminal (or the CI log). Every error caused by
// the user's input — a file, a flag, a configuration item, an expression, a suite, an unreachable
// API — is a UserError; anything else is a bug. `cli/main.ts` is the only place that turns an error
// into a line and an exit code:
//
//   edgesim: <source>: <detail>        (the error's message; source omitted when there is none)
//
// `source` names what the error is about (a file, a flag such as --atp-options, an API URL). Code
// deep inside (the firewall compiler, ATP) often does not know the file the item came from: it
// throws a ConfigItemError with the item's path, and the command that loaded the file sets `source`
// with `attachSource` on the way out. Exit codes: 1 the input was wrong or a check failed, 2 usage
// (a bad flag, an invalid suite), as the commands' help says.

export interface UserErrorOptions {
  /** the file, flag or URL the error is about; printed before the message */
  source?: string;
  /** the process exit code (default 1) */
  exitCode?: number;
  cause?: unknown;
}

export class UserError extends Error {
  override name = 'UserError';
  /** what went wrong, without the source */
  readonly detail: string;
  source: string | undefined;
  readonly exitCode: number;

  constructor(detail: string, options: UserErrorOptions = {}) {
    super(withSource(options.source, detail), options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = detail;
    this.source = options.source;
    this.exitCode = options.exitCode ?? 1;
  }

  /** Names the file (or flag, or URL) the error is about. */
  locate(source: string): void {
    this.source = source;
    this.message = withSource(source, this.detail);
  }
}

function withSource(source: string | undefined, detail: string): string {
  return source === undefined || source === '' ? detail : `${source}: ${detail}`;
}

/** A wrong command line: exit 2, as commander's own usage errors. */
export class UsageError extends UserError {
  override name = 'UsageError';

  constructor(message: string) {
    super(message, { exitCode: 2 });
  }
}

/** A configuration item that cannot be used; `path` locates it, e.g. `rulesets[0].rules[3].expression`. */
export class ConfigItemError extends UserError {
  override name = 'ConfigItemError';

  constructor(
    /** where the item is in the configuration, e.g. `syn_protection.rules[2].mode` */
    readonly path: string,
    /** what is wrong with it */
    readonly problem: string,
    source?: string,
  ) {
    super(path === '' ? problem : `${path}: ${problem}`, { source });
  }
}

/** A file we were asked to write (an output, a pcap, a golden file) that cannot be written. */
export class OutputError extends UserError {
  override name = 'OutputError';

  constructor(file: string, cause: unknown) {
    super(`cannot write: ${systemErrorText(cause)}`, { source: file, cause });
  }
}

/** A file we were asked to read that cannot be read (missing, a folder, no permission). */
export class InputError extends UserError {
  override name = 'InputError';

  constructor(file: string, cause: unknown, what = 'cannot read') {
    super(`${what}: ${systemErrorText(cause)}`, { source: file, cause });
  }
}

/** Names the file (or API) a ConfigItemError's item came from, unless it names one already; returns err. */
export function attachSource(err: unknown, source: string | undefined): unknown {
  if (err instanceof ConfigItemError && (err.source === undefined || err.source === '') && source !== undefined) err.locate(source);
  return err;
}

const SYSTEM_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EEXIST: 'it already exists',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'input/output error',
  EFBIG: 'the file is too large',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links',
  ECONNREFUSED: 'connection refused (is the server running?)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'host not found',
  EADDRINUSE: 'the address is already in use',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  EPIPE: 'the reader went away',
};

/** A system error in plain words ("no such file or folder"), never a raw code alone. */
export function systemErrorText(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code !== undefined && SYSTEM_ERRORS[code] !== undefined) return SYSTEM_ERRORS[code];
  if (e?.cause !== undefined && e.cause !== err) {
    const inner = e.cause as { code?: unknown };
    if (typeof inner.code === 'string' && SYSTEM_ERRORS[inner.code] !== undefined) return SYSTEM_ERRORS[inner.code];
  }
  const message = typeof e?.message === 'string' ? e.message : String(err);
  // a path with a NUL byte (from a suite, a JSON file) is refused by Node before any system call
  if (code === 'ERR_INVALID_ARG_VALUE' && /null bytes/.test(message)) return 'a path cannot hold a NUL character';
  // Node's messages look like "ENOENT: no such file or directory, open 'x'": keep the words only
  return message.replace(/^[A-Z][A-Z0-9_]+: /, '').replace(/, \w+ '.*'$/, '');
}
