// Account state: in memory for speed, on disk for durability (one JSON file per account under the
// data directory), or in memory only.
//
// Concurrency: JavaScript runs one handler at a time between awaits, and every write validates and
// applies its change synchronously on the one in-memory state object, so concurrent writers cannot
// lose each other's updates. A write's answer is copied from the state right after its change,
// before anything else runs: by the time the disk write completes, parallel requests may have
// changed the account again, and the answer must still say what this write did. Durability is a group commit: a handler awaits `commit()`, which
// resolves once a write that started after its change has reached the disk. While one write is in
// flight, every later change waits for the next write, and that single write carries all of them;
// so 50 concurrent creates cost a few file writes, not 50, and each is acknowledged only once durable.
import path from 'node:path';
import { ApiError } from './errors.js';
import { readFileIfExists, writeFileAtomic } from './persistence.js';
import { emptyAccount, type AccountState } from './state.js';

const FORMAT = 'edgesim-account-state';

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

/** Holds every account's state; `dir` undefined keeps everything in memory. */
export class AccountStore {
  private readonly accounts = new Map<string, Promise<Account>>();

  constructor(private readonly dir?: string) {}

  /** What `view` makes of the account's state (an account never seen reads as a new, empty one). */
  async read<T>(account: string, view: (state: AccountState) => T): Promise<T> {
    return view((await this.account(account)).state);
  }

  /**
   * Applies `change` to the account's state and answers, once the new state is durable, with a copy
   * of what `change` returned, taken before any other request could run. A change that throws
   * must leave the state as it was (validate first, then mutate). On a failed disk write the
   * account is reloaded from disk next time.
   */
  async write<T>(account: string, change: (state: AccountState) => T): Promise<T> {
    const entry = await this.account(account);
    const answer = structuredClone(change(entry.state));
    try {
      await entry.commit();
    } catch (err) {
      this.accounts.delete(account);
      throw new ApiError('storage_failure', `could not save the account's configuration: ${(err as Error).message}`);
    }
    return answer;
  }

  /** Waits for every pending write. */
  async close(): Promise<void> {
    for (const entry of this.accounts.values()) await (await entry.catch(() => undefined))?.settle();
  }

  private account(id: string): Promise<Account> {
    let entry = this.accounts.get(id);
    if (!entry) {
      entry = this.load(id);
      this.accounts.set(id, entry);
      entry.catch(() => this.accounts.delete(id));
    }
    return entry;
  }

  private async load(id: string): Promise<Account> {
    if (this.dir === undefined) return new Account(id, emptyAccount(), undefined);
    const file = path.join(this.dir, `${id}.json`);
    let text: string | undefined;
    try {
      text = await readFileIfExists(file);
    } catch (err) {
      throw new ApiError('storage_failure', `cannot read ${file}: ${(err as Error).message}`);
    }
    if (text === undefined) return new Account(id, emptyAccount(), file);
    let doc: { format?: unknown; state?: Partial<AccountState> };
    try {
      doc = JSON.parse(text) as typeof doc;
    } catch (err) {
      throw new ApiError('storage_failure', `${file} is not valid JSON: ${(err as Error).message}`);
    }
    if (doc.format !== FORMAT || typeof doc.state !== 'object' || doc.state === null) {
      throw new ApiError('storage_failure', `${file} is not an edgesim account state file`);
    }
    return new Account(id, { ...emptyAccount(), ...doc.state }, file);
  }
}
