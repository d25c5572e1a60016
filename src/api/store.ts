// Account state: in memory for speed, on disk for durability (one JSON file per account under the
// data directory), or in memory only.
//
// Opening a data directory creates it if needed, removes the temporary files a crash left behind,
// and loads and checks every account file, so a damaged or hand-edited file stops the start-up with
// one line naming the file and the JSON path, instead of a 500 on some later request. An account
// that was only read and never written is not kept: reading a thousand unknown ids costs nothing.
//
// Concurrency: JavaScript runs one handler at a time between awaits, and every write validates and
// applies its change synchronously on the one in-memory state object, so concurrent writers cannot
// lose each other's updates. A write's answer is copied from the state right after its change,
// before anything else runs: by the time the disk write completes, parallel requests may have
// changed the account again, and the answer must still say what this write did. Durability is a
// group commit: a write resolves once a file write that started after its change has reached the
// disk. While one file write is in flight, every later change waits for the next one, and that
// single write carries all of them; so 50 concurrent creates cost a few file writes, not 50, and
// each is acknowledged only once durable.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseJson } from '../config/json.js';
import { VOCABULARY } from '../config/checks.js';
import { dottedPath, parseWithSchema, type JsonSchema } from '../config/schema.js';
import { ConfigItemError, InputError, systemErrorText, UserError } from '../errors.js';
import { ApiError } from './errors.js';
import { makeWritableDirectory, removeTemporaryFiles, writeFileAtomic } from './persistence.js';
import { ACCOUNT_STATE_SCHEMA, emptyAccount, type AccountState } from './state.js';

const FORMAT = 'edgesim-account-state';
const STATE_FILE = /^([A-Za-z0-9_-]{1,64})\.json$/;

const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'account', 'state'],
  properties: {
    format: { type: 'string', enum: [FORMAT] },
    version: { type: 'integer', minimum: 1, maximum: 1 },
    account: { type: 'string' },
    state: ACCOUNT_STATE_SCHEMA,
  },
};

class Account {
  private inflight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(readonly id: string, readonly state: AccountState, private readonly file: string | undefined) {}

  commit(): Promise<void> {
    if (this.file === undefined) return Promise.resolve();
    if (this.queued) return this.queued;
    if (!this.inflight) return this.start();
    const start = (): Promise<void> => this.start();
    this.queued = this.inflight.then(start, start);
    return this.queued;
  }

  private start(): Promise<void> {
    this.queued = null;
    const text = `${JSON.stringify({ format: FORMAT, version: 1, account: this.id, state: this.state })}\n`;
    const write = writeFileAtomic(this.file as string, text);
    this.inflight = write;
    const clear = (): void => {
      if (this.inflight === write) this.inflight = null;
    };
    write.then(clear, clear);
    return write;
  }

  async settle(): Promise<void> {
    while (this.inflight || this.queued) await (this.queued ?? this.inflight)?.catch(() => undefined);
  }
}

/** Reads and checks one account file; a problem is a one-line UserError naming the file. */
async function loadAccountFile(file: string, id: string): Promise<Account> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(file, err);
  }
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (err) {
    throw new UserError(`not an edgesim account state file: ${(err as Error).message}`, { source: file });
  }
  const { value, issues, omitted } = parseWithSchema(FILE_SCHEMA, doc, VOCABULARY);
  if (issues.length > 0) {
    const more = issues.length - 1 + omitted;
    const message = issues[0].message.replace(/\n[\s\S]*$/, '');
    throw new ConfigItemError(dottedPath(issues[0].path), `${message}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`, file);
  }
  const state = (value as { state: Partial<AccountState> }).state;
  return new Account(id, { ...emptyAccount(), ...state }, file);
}

/** Holds every account's state; `dir` undefined keeps everything in memory. */
export class AccountStore {
  private readonly accounts = new Map<string, Account>();

  private constructor(private readonly dir: string | undefined) {}

  /**
   * A store in `dir` (created if needed; temporary files of an interrupted write removed; every
   * account file loaded and checked), or in memory when `dir` is undefined. Throws a UserError
   * naming the directory or the file.
   */
  static async open(dir: string | undefined): Promise<AccountStore> {
    const store = new AccountStore(dir);
    if (dir === undefined) return store;
    try {
      await makeWritableDirectory(dir);
      await removeTemporaryFiles(dir);
    } catch (err) {
      throw new UserError(`the directory cannot be created or written: ${systemErrorText(err)}`, { source: dir, cause: err });
    }
    for (const name of (await readdir(dir)).sort()) {
      const id = STATE_FILE.exec(name)?.[1];
      if (id !== undefined) store.accounts.set(id, await loadAccountFile(path.join(dir, name), id));
    }
    return store;
  }

  /** How many accounts are held (those written at least once, or loaded from disk). */
  get size(): number {
    return this.accounts.size;
  }

  /** What `view` makes of the account's state; an account never written reads as a new, empty one and is not kept. */
  async read<T>(account: string, view: (state: AccountState) => T): Promise<T> {
    return view(this.accounts.get(account)?.state ?? emptyAccount());
  }

  /**
   * Applies `change` to the account's state and answers, once the new state is durable, with a copy
   * of what `change` returned, taken before any other request could run. A change that throws
   * must leave the state as it was (validate first, then mutate). When the disk write fails, the
   * account goes back to what its file holds.
   */
  async write<T>(account: string, change: (state: AccountState) => T): Promise<T> {
    const entry = this.accounts.get(account) ?? this.create(account);
    const answer = structuredClone(change(entry.state));
    try {
      await entry.commit();
    } catch (err) {
      await this.reload(account, entry);
      throw new ApiError('storage_failure', `could not save the account's configuration: ${systemErrorText(err)}`);
    }
    return answer;
  }

  /** Waits for every pending write. */
  async close(): Promise<void> {
    for (const entry of this.accounts.values()) await entry.settle();
  }

  private create(id: string): Account {
    const entry = new Account(id, emptyAccount(), this.dir === undefined ? undefined : path.join(this.dir, `${id}.json`));
    this.accounts.set(id, entry);
    return entry;
  }

  /** After a failed write: the account as its file holds it (none when there is no file yet). */
  private async reload(id: string, failed: Account): Promise<void> {
    if (this.accounts.get(id) !== failed || this.dir === undefined) return;
    const file = path.join(this.dir, `${id}.json`);
    const fresh = await loadAccountFile(file, id).catch(() => undefined);
    if (this.accounts.get(id) !== failed) return;
    if (fresh) this.accounts.set(id, fresh);
    else this.accounts.delete(id);
  }
}
