// Account state: in memory for speed, on disk for durability (one JSON file per account under the
// data directory), or in memory only.
//
// Concurrency: JavaScript runs one handler at a time between awaits, and every handler validates and
// applies its change synchronously on the one in-memory state object, so concurrent writers cannot
// lose each other's updates. Durability is a group commit: a handler awaits `commit()`, which
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

  /** The account's state (a new, empty account the first time an id is seen). */
  async state(account: string): Promise<AccountState> {
    return (await this.account(account)).state;
  }

  /** Resolves once the account's current state is on disk; on failure the account is reloaded next time. */
  async commit(account: string): Promise<void> {
    const entry = await this.account(account);
    try {
      await entry.commit();
    } catch (err) {
      this.accounts.delete(account);
      throw new ApiError('storage_failure', `could not save the account's configuration: ${(err as Error).message}`);
    }
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
