// Account state: in memory for speed, on disk for durability, or in memory only. On disk an
// account is two files under the data directory: `<account>.json` with everything but the items of
// its IP lists, rewritten atomically on every write, and `<account>.items.ndjson`, the append-only
// log of those items (item-log.ts), so a one-item add appends a line instead of rewriting 17 MB.
// (Format version 1 kept the items in the account file; such a file is read, and its items move to
// the log on the next write.)
//
// Opening a data directory creates it if needed, takes its lock (directory-lock.ts: one server
// per directory), removes the temporary files a crash left behind, and loads and checks every
// account file, so a damaged or hand-edited file stops the start-up with
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
// each is acknowledged only once durable. A write appends its item changes to the log first, then
// replaces the account file.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseJson } from '../config/json.js';
import { VOCABULARY } from '../config/checks.js';
import { parseWithSchema, type JsonSchema } from '../config/schema.js';
import { firstIssueError } from '../config/validate.js';
import { InputError, systemErrorText, UserError } from '../errors.js';
import { ApiError } from './errors.js';
import { compaction, entries, logLines, needsCompaction, replayLog, snapshotOf, type ItemChange, type ItemChanges } from './item-log.js';
import { lockDirectory, type DirectoryLock } from './directory-lock.js';
import { appendFileDurably, makeWritableDirectory, removeTemporaryFiles, writeFileAtomic } from './persistence.js';
import { ACCOUNT_STATE_SCHEMA, emptyAccount, type AccountState } from './state.js';

const FORMAT = 'edgesim-account-state';
const STATE_FILE = /^([A-Za-z0-9_-]{1,64})\.json$/;

const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'account', 'state'],
  properties: {
    format: { type: 'string', enum: [FORMAT] },
    version: { type: 'integer', minimum: 1, maximum: 2 },
    account: { type: 'string' },
    state: ACCOUNT_STATE_SCHEMA,
  },
};

interface Files {
  /** `<account>.json` */
  state: string;
  /** `<account>.items.ndjson` */
  items: string;
}

const filesOf = (dir: string, id: string): Files => ({ state: path.join(dir, `${id}.json`), items: path.join(dir, `${id}.items.ndjson`) });

class Account implements ItemChanges {
  private inflight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** item changes not yet in the log */
  private pending: ItemChange[] = [];

  constructor(
    readonly id: string,
    readonly state: AccountState,
    private readonly files: Files | undefined,
    /** item entries in the log; `force`: compact on the next write (a version-1 file's items are not in the log) */
    private log = { written: 0, force: false },
  ) {}

  record(change: ItemChange): void {
    if (this.files !== undefined) this.pending.push(snapshotOf(change));
  }

  commit(): Promise<void> {
    if (this.files === undefined) return Promise.resolve();
    if (this.queued) return this.queued;
    if (!this.inflight) return this.start();
    const start = (): Promise<void> => this.start();
    this.queued = this.inflight.then(start, start);
    return this.queued;
  }

  private start(): Promise<void> {
    this.queued = null;
    const changes = this.pending;
    this.pending = [];
    const compact = this.log.force || needsCompaction(this.log.written + changes.reduce((n, c) => n + entries(c), 0), this.state.lists);
    const items = compact ? compaction(this.state.lists) : changes;
    const written = items.reduce((n, c) => n + entries(c), 0);
    const lists = this.state.lists.map(({ items: _items, ...list }) => list);
    const text = `${JSON.stringify({ format: FORMAT, version: 2, account: this.id, state: { ...this.state, lists } })}\n`;
    const write = this.persist(this.files as Files, items, compact, written, text);
    this.inflight = write;
    const clear = (): void => {
      if (this.inflight === write) this.inflight = null;
    };
    write.then(clear, clear);
    return write;
  }

  private async persist(files: Files, changes: ItemChange[], compact: boolean, written: number, text: string): Promise<void> {
    const items = await logLines(changes);
    if (compact) {
      await writeFileAtomic(files.items, items);
      this.log = { written, force: false };
    } else if (items !== '') {
      await appendFileDurably(files.items, items);
      this.log.written += written;
    }
    await writeFileAtomic(files.state, text);
  }

  async settle(): Promise<void> {
    while (this.inflight || this.queued) await (this.queued ?? this.inflight)?.catch(() => undefined);
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(file, err);
  }
}

/** Reads and checks one account's files; a problem is a one-line UserError naming the file. */
async function loadAccount(files: Files, id: string): Promise<Account> {
  const file = files.state;
  const text = await readIfExists(file);
  if (text === undefined) throw new InputError(file, Object.assign(new Error('missing'), { code: 'ENOENT' }));
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (err) {
    throw new UserError(`not an edgesim account state file: ${(err as Error).message}`, { source: file });
  }
  const { value, issues, omitted } = parseWithSchema(FILE_SCHEMA, doc, VOCABULARY);
  if (issues.length > 0) throw firstIssueError(issues, omitted, file);
  const { version, state: stored } = value as { version: number; state: Partial<AccountState> };
  const state = { ...emptyAccount(), ...stored };
  const legacyItems = state.lists.filter((l) => l.items !== undefined && l.items.length > 0);
  for (const list of state.lists) list.items ??= [];
  const log = await readIfExists(files.items);
  const written = log === undefined ? 0 : replayLog(log, state.lists, files.items);
  // a version-1 file holds items the log does not: the first write compacts, putting them in the log
  return new Account(id, state, files, { written, force: version === 1 && legacyItems.length > 0 });
}

/** Holds every account's state; `dir` undefined keeps everything in memory. */
export class AccountStore {
  private readonly accounts = new Map<string, Account>();

  private constructor(
    private readonly dir: string | undefined,
    private readonly lock: DirectoryLock | undefined,
  ) {}

  /**
   * A store in `dir` (created if needed; locked against another server; temporary files of an
   * interrupted write removed; every account file loaded and checked), or in memory when `dir` is
   * undefined. Throws a UserError naming the directory or the file.
   */
  static async open(dir: string | undefined): Promise<AccountStore> {
    if (dir === undefined) return new AccountStore(undefined, undefined);
    let lock: DirectoryLock;
    try {
      await makeWritableDirectory(dir);
      lock = await lockDirectory(dir);
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`the directory cannot be created or written: ${systemErrorText(err)}`, { source: dir, cause: err });
    }
    const store = new AccountStore(dir, lock);
    try {
      await removeTemporaryFiles(dir);
      for (const name of (await readdir(dir)).sort()) {
        const id = STATE_FILE.exec(name)?.[1];
        if (id !== undefined) store.accounts.set(id, await loadAccount(filesOf(dir, id), id));
      }
    } catch (err) {
      await lock.release();
      if (err instanceof UserError) throw err;
      throw new UserError(`the directory cannot be read or written: ${systemErrorText(err)}`, { source: dir, cause: err });
    }
    return store;
  }

  /** How many accounts are held (those changed at least once, or loaded from disk). */
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
  async write<T>(account: string, change: (state: AccountState, items: ItemChanges) => T): Promise<T> {
    const entry = this.accounts.get(account) ?? new Account(account, emptyAccount(), this.dir === undefined ? undefined : filesOf(this.dir, account));
    const answer = structuredClone(change(entry.state, entry));
    this.accounts.set(account, entry);
    try {
      await entry.commit();
    } catch (err) {
      await this.reload(account, entry);
      throw new ApiError('storage_failure', `could not save the account's configuration: ${systemErrorText(err)}`);
    }
    return answer;
  }

  /**
   * A dry run of a write: `change` runs on a copy of the account's state and throws what it would
   * throw in `write`; nothing is kept, logged or saved.
   */
  async check(account: string, change: (state: AccountState, items: ItemChanges) => unknown): Promise<void> {
    change(structuredClone(this.accounts.get(account)?.state ?? emptyAccount()), { record: () => undefined });
  }

  /** Waits for every pending write, then lets another server open the directory. */
  async close(): Promise<void> {
    for (const entry of this.accounts.values()) await entry.settle();
    await this.lock?.release();
  }

  /** After a failed write: the account as its file holds it (none when there is no file yet). */
  private async reload(id: string, failed: Account): Promise<void> {
    if (this.accounts.get(id) !== failed || this.dir === undefined) return;
    const fresh = await loadAccount(filesOf(this.dir, id), id).catch(() => undefined);
    if (this.accounts.get(id) !== failed) return;
    if (fresh) this.accounts.set(id, fresh);
    else this.accounts.delete(id);
  }
}
