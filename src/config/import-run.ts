// How `edgesim import` writes a plan, and how it stops: each resource in turn, each request's
// effect recorded as it is answered, so that when a write is refused, or a signal comes (Ctrl-C,
// or the SIGTERM of a cancelled CI job), what was written is put back and the line said is true.
//
// - A signal stops the import between two requests: the request in flight is answered (finished,
//   never cut off), no other write is sent, and what was written is put back as after a refusal;
//   the exit code is then 128 + the signal's number. A second signal stops it at once, with a line
//   saying which resource holds what (`describeAtOnce`).
// - Only what still holds what this import wrote is put back. Before a resource is written back it
//   is read and compared with the states this import's answered requests left it in: ids, versions
//   and times as the server gave them (a ruleset's `version`, a protection object's id and
//   `modified_on`), and the content. A resource someone else changed meanwhile is left as they
//   made it, and named. The vendor's API has no conditional write (no ETag, no If-Match), so the
//   comparison and the write back are two requests: a change between the two is not seen.
// - After the last write every written resource is read again, and one someone else changed during
//   the import is named instead of saying that the account holds the file.
import { constants } from 'node:os';
import { UserError } from '../errors.js';
import { Api, Interrupted, refusal, type ApiTarget } from './api-client.js';

/** One line of a plan: an object created (+), changed (~) or destroyed (-). */
export interface PlannedChange {
  change: '+' | '~' | '-';
  what: string;
}

/**
 * What a resource holds: `content` what a user writes (canonical JSON), `exact` that with what the
 * server assigns (ids, versions, times), undefined when the server does not show it.
 */
export interface Held {
  content: string;
  exact?: string;
}

/** Whether `now` is the state `was` describes (what the server assigns compared when both know it). */
export function sameState(was: Held, now: Held): boolean {
  return was.content === now.content && (was.exact === undefined || now.exact === undefined || was.exact === now.exact);
}

/** A resource the import writes: how it is read, made as the file has it, and put back as it was. */
export interface Part {
  /** what lines call it: `the prefixes`, `list "office"`, `the root ruleset` */
  label: string;
  changes: PlannedChange[];
  /** what it held when the import read the account */
  before: Held;
  read(api: Api): Promise<Held>;
  write(w: Writes): Promise<void>;
  restore(w: Writes): Promise<void>;
}

/** The write requests to one resource, and the states their answers left it in. */
export class Writes {
  /** the states this import's requests may have left the resource in: none (untouched), one, or more when an outcome is not known */
  states: Held[] = [];

  constructor(readonly api: Api) {}

  /**
   * Sends one write; `after(result, true)` is the state its answer leaves the resource in. A
   * refusal (4xx) changed nothing; no answer, or a 5xx, may have changed it or not: then
   * `after(undefined, false)` is the state it may be in, of which only the content is known.
   */
  async send(method: string, path: string, body: unknown, after: (result: unknown, answered: boolean) => Held): Promise<unknown> {
    let answer: Awaited<ReturnType<Api['send']>>;
    try {
      answer = await this.api.send(method, path, body);
    } catch (err) {
      if (!(err instanceof Interrupted)) this.states.push(after(undefined, false));
      throw err;
    }
    const { status } = answer.reply;
    if (status >= 200 && status <= 299 && answer.envelope.success !== false) {
      this.states = [after(answer.envelope.result, true)];
      return answer.envelope.result;
    }
    if (status >= 500) this.states.push(after(undefined, false));
    throw refusal(method, answer);
  }
}

type Stage = 'writing' | 'written' | 'restoring' | 'restored' | 'unchanged' | 'others' | 'failed';

interface Entry {
  part: Part;
  writes: Writes;
  stage: Stage;
  /** why it could not be put back */
  reason?: string;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const list = (entries: readonly Entry[]): string => entries.map((e) => e.part.label).join(', ');
const isAre = (entries: readonly Entry[]): string => (entries.length === 1 ? 'is' : 'are');

/** The exit code of a process a signal stopped: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(signal: string): number {
  return 128 + (constants.signals[signal as NodeJS.Signals] ?? 0);
}

/** One import's writes to an account, as far as they went: what each resource holds is said from it. */
export class ImportRun {
  private readonly entries: Entry[] = [];

  constructor(readonly account: string) {}

  /**
   * Writes each part in turn with `api` (whose signal stops it between two requests). When a write
   * fails or a signal stops it, puts back what was written (through `restoreApi`, which no signal
   * stops) and throws the line saying where it stopped and what the account holds.
   */
  async write(parts: readonly Part[], api: Api, restoreApi: Api): Promise<void> {
    for (const part of parts) {
      const entry: Entry = { part, writes: new Writes(api), stage: 'writing' };
      this.entries.push(entry);
      try {
        await part.write(entry.writes);
        entry.stage = 'written';
      } catch (err) {
        throw await this.rollBack(restoreApi, err);
      }
    }
    await this.checkWritten(restoreApi);
  }

  /** After the last write: each resource read again; one that no longer holds what this import wrote is named. */
  private async checkWritten(api: Api): Promise<void> {
    const changed: Entry[] = [];
    for (const entry of this.entries) {
      let now;
      try {
        now = await entry.part.read(api);
      } catch (err) {
        throw new UserError(`import into account ${this.account} wrote everything the file names, but could not read it back to check it: ${message(err)}`, { cause: err });
      }
      if (!entry.writes.states.some((s) => sameState(s, now))) changed.push(entry);
    }
    if (changed.length === 0) return;
    throw new UserError(
      `import into account ${this.account} wrote everything the file names, but ${list(changed)} ${changed.length === 1 ? 'was' : 'were'} changed by someone else during the import`
      + ` and ${changed.length === 1 ? 'holds' : 'hold'} what they wrote (see edgesim export); everything else holds the file's content`,
    );
  }

  /** Puts back, last first, every resource this import wrote that still holds what it wrote; the line saying so. */
  private async rollBack(api: Api, cause: unknown): Promise<UserError> {
    const how = this.how(cause);
    for (const entry of [...this.entries].reverse()) {
      if (entry.writes.states.length === 0) {
        entry.stage = 'unchanged';
        continue;
      }
      entry.stage = 'restoring';
      try {
        const now = await entry.part.read(api);
        if (sameState(entry.part.before, now)) entry.stage = 'unchanged';
        else if (!entry.writes.states.some((s) => sameState(s, now))) entry.stage = 'others';
        else {
          await entry.part.restore(new Writes(api));
          entry.stage = 'restored';
        }
      } catch (err) {
        entry.stage = 'failed';
        entry.reason = message(err);
      }
    }
    const exitCode = cause instanceof Interrupted ? signalExitCode(cause.signal) : undefined;
    return new UserError(`import into account ${this.account} ${how}; ${this.afterRollBack()}`, { cause, exitCode });
  }

  /** Where the writes stopped, and why. */
  private how(cause: unknown): string {
    const current = this.entries.at(-1);
    if (!(cause instanceof Interrupted)) return `stopped at ${current?.part.label ?? 'its first write'}: ${message(cause)}`;
    const touched = this.entries.filter((e) => e.writes.states.length > 0).at(-1);
    if (touched === undefined) return `interrupted by ${cause.signal} before its first write`;
    return `interrupted by ${cause.signal} ${touched === current ? 'while writing' : 'after writing'} ${touched.part.label}`;
  }

  /** The entries at these stages, last first (the order they are put back in). */
  private stage(...stages: Stage[]): Entry[] {
    return this.entries.filter((e) => stages.includes(e.stage)).reverse();
  }

  /** What the account holds once everything that could be put back was. */
  private afterRollBack(): string {
    const putBack = this.stage('restored');
    const others = this.stage('others');
    const failed = this.stage('failed');
    const clauses: string[] = [];
    if (putBack.length > 0) clauses.push(`put back ${list(putBack)}`);
    if (others.length > 0) {
      const them = others.length === 1 ? 'it' : 'them';
      clauses.push(`left ${list(others)} as ${others.length === 1 ? 'it is' : 'they are'}: someone else changed ${them} after this import wrote ${them}`);
    }
    if (failed.length > 0) {
      clauses.push(`could not put back ${failed.map((e) => `${e.part.label} (${e.reason})`).join(', ')}: ${failed.length === 1 ? 'it is' : 'they are'} part-way between the account's and the file's (see edgesim export)`);
    }
    if (others.length + failed.length === 0) return `${clauses.length > 0 ? `${clauses.join('; ')}: ` : ''}the account is as it was before the import`;
    return `${clauses.join('; ')}; everything else is as it was before the import`;
  }

  /** The line for a second signal, which stops the import at once, wherever it is: what each resource holds now. */
  describeAtOnce(signal: string): string {
    const head = `import into account ${this.account} stopped at once by a second ${signal}`;
    const touched = (e: Entry): boolean => e.writes.states.length > 0;
    const clauses: string[] = [];
    const putBack = this.stage('restored');
    const others = this.stage('others');
    const whole = this.stage('written');
    const partWay = [...this.stage('writing', 'restoring').filter(touched), ...this.stage('failed')];
    if (putBack.length > 0) clauses.push(`put back ${list(putBack)}`);
    if (others.length > 0) clauses.push(`left ${list(others)} as someone else changed ${others.length === 1 ? 'it' : 'them'}`);
    if (whole.length > 0) clauses.push(`${list(whole)} ${whole.length === 1 ? 'holds' : 'hold'} the file's content`);
    if (partWay.length > 0) clauses.push(`${list(partWay)} ${isAre(partWay)} part-way between the account's and the file's`);
    if (whole.length + partWay.length + others.length === 0) return `${head}: the account is as it was before the import`;
    return `${head}: ${clauses.join('; ')} (see edgesim export); everything else is as it was before the import`;
  }
}

/** Writes `parts` into the account of `target`; `signal` (Ctrl-C) stops the writes between two requests. */
export async function writeParts(parts: readonly Part[], target: ApiTarget, run: ImportRun, signal?: AbortSignal): Promise<void> {
  await run.write(parts, new Api(target, signal), new Api(target));
}
