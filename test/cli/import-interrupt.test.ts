// An import interrupted as a cancelled CI job interrupts it: a real `edgesim import` writing into a
// real `edgesim serve`, sent SIGINT or SIGTERM while each of its writes in turn is in flight (a
// proxy holds that write until the signal has been sent, then lets it through). Every time, the
// account ends exactly as it was before the import (up to the ids of what was re-created), or, when
// the signal came during the last write, exactly as the file has it; and the one line printed says
// which, and what was put back. A second signal stops it at once, and its line is true too.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSnapshot, type ApiTarget } from '../../src/config/api-client.js';
import { describePlan, planImport } from '../../src/config/import.js';
import { TOKEN } from '../api/helpers.js';
import { IMPORT_FILE, seedAccount, withoutServerFields } from '../config/helpers.js';
import { apiProxy, type Decision, type SeenRequest } from '../helpers/api-proxy.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let serve: ChildProcess;
let url: string;
let n = 0;
const account = (): string => `int${++n}`;
const target = (acct: string): ApiTarget => ({ url, account: acct, token: TOKEN });
const FILE_PATH = path.join(tempDir('edgesim-interrupt-'), 'import.json');

beforeAll(async () => {
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--in-memory'], { stdio: ['ignore', 'pipe', 'ignore'] });
  url = await new Promise((resolve) => createInterface({ input: serve.stdout! }).once('line', resolve));
  writeFileSync(FILE_PATH, JSON.stringify(FILE));
});
afterAll(async () => {
  const exited = new Promise((resolve) => serve.once('exit', resolve));
  serve.kill('SIGTERM');
  await exited;
});

const FILE = IMPORT_FILE;
const seed = (acct: string): Promise<string> => seedAccount(url, acct);

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function startImport(acct: string, api: string): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [BIN, 'import', FILE_PATH, '--api', api, '--account', acct, '--token', TOKEN], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (b: Buffer) => out.push(b));
  child.stderr!.on('data', (b: Buffer) => err.push(b));
  const ended = new Promise<Ended>((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() })));
  return { child, ended };
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/** Holds the writes numbered in `numbers`: `reached(n)` resolves when write n arrives, `release(n, d)` lets it go (forwarded, or failed). */
function holding(numbers: number[]) {
  const arrived = new Map(numbers.map((k) => [k, deferred<void>()]));
  const released = new Map(numbers.map((k) => [k, deferred<Decision>()]));
  return {
    decide: async (r: SeenRequest): Promise<Decision> => {
      if (r.write === undefined || !arrived.has(r.write)) return 'forward';
      arrived.get(r.write)!.resolve();
      return released.get(r.write)!.promise;
    },
    reached: (k: number) => arrived.get(k)!.promise,
    release: (k: number, d: Decision) => released.get(k)!.resolve(d),
  };
}

/** Time for the import to take the signal it was sent while it waits for an answer (it has nothing else to do). */
const taken = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

/** Each write of an import of FILE, in order, named as the import's lines name its resource. */
async function writeSequence(): Promise<string[]> {
  const acct = account();
  const office = await seed(acct);
  const proxy = await apiProxy(url);
  const { ended } = startImport(acct, proxy.url);
  expect((await ended).status).toBe(0);
  await proxy.close();
  const RESOURCES: Array<[RegExp, string]> = [
    [/\/tcp_protection_status$/, 'the protection status'],
    [/\/configs\/prefixes(\/bulk)?$/, 'the prefixes'],
    [/\/configs\/allowlist$/, 'the allowlist entries'],
    [/\/syn_protection\/rules$/, 'the SYN flood rules'],
    [/\/tcp_flow_protection\/filters$/, 'the out-of-state TCP filters'],
    [new RegExp(`/rules/lists/${office}/items$`), 'list "office"'],
    [/\/rules\/lists(\/[0-9a-f]{32}\/items)?$/, 'list "labs"'],
    [/\/rulesets\/phases\/magic_transit\/entrypoint$/, 'the rule-limit probe'],
    [/\/rulesets\/[0-9a-f]{32}$/, 'the root ruleset'],
  ];
  return proxy.seen.filter((r) => r.write !== undefined).map((r) => RESOURCES.find(([re]) => re.test(r.url))?.[1] ?? `unknown write ${r.method} ${r.url}`);
}

describe('edgesim import interrupted during its writes', () => {
  it('SIGINT or SIGTERM at every write: the account is as before (or, at the last write, as the file), and the line says exactly that', async () => {
    const writes = await writeSequence();
    expect(writes).toEqual([
      'the rule-limit probe', 'the protection status', 'the prefixes', 'the prefixes', 'the allowlist entries', 'the SYN flood rules', 'the SYN flood rules',
      'the out-of-state TCP filters', 'the out-of-state TCP filters', 'list "office"', 'list "labs"', 'list "labs"', 'the root ruleset',
    ]);
    for (let k = 1; k <= writes.length; k++) {
      const signal: NodeJS.Signals = k % 2 === 0 ? 'SIGTERM' : 'SIGINT';
      const code = signal === 'SIGINT' ? 130 : 143;
      const acct = account();
      await seed(acct);
      const before = await exportSnapshot(target(acct));
      const hold = holding([k]);
      const proxy = await apiProxy(url, hold.decide);
      const { child, ended } = startImport(acct, proxy.url);
      await hold.reached(k);
      child.kill(signal);
      await taken();
      hold.release(k, 'forward');
      const r = await ended;
      await proxy.close();
      const point = `${signal} during write ${k} of ${writes.length} (${writes[k - 1]})`;
      if (k === 1) {
        expect([point, r.status, r.stderr]).toEqual([point, code, `edgesim: import into account ${acct} interrupted by ${signal} before its first write: the account is as it was before the import\n`]);
        expect(await exportSnapshot(target(acct)), point).toEqual(before);
      } else if (k < writes.length) {
        const putBack = [...new Set(writes.slice(1, k))].reverse().join(', ');
        const where = writes[k] === writes[k - 1] ? 'while writing' : 'after writing';
        expect([point, r.status, r.stdout, r.stderr]).toEqual([point, code, '', `edgesim: import into account ${acct} interrupted by ${signal} ${where} ${writes[k - 1]}; put back ${putBack}: the account is as it was before the import\n`]);
        expect(withoutServerFields(await exportSnapshot(target(acct))), point).toEqual(withoutServerFields(before));
      } else {
        expect([point, r.status, r.stderr]).toEqual([point, 0, `edgesim: warning: ${signal} came during the last write, which finished: the import is complete\n`]);
        expect(r.stdout, point).toMatch(new RegExp(`^imported \\S+ into account ${acct}: replaced: `));
        expect(describePlan(await planImport(FILE, target(acct))), point).toBe('No changes. The account already holds what the file names.\n');
      }
    }
  });

  it('a second signal while putting back stops it at once, and its line says truly which resource holds what', async () => {
    const writes = await writeSequence();
    const k = writes.indexOf('list "labs"') + 1; // the list's creation
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const hold = holding([k, k + 1]);
    const proxy = await apiProxy(url, hold.decide);
    const { child, ended } = startImport(acct, proxy.url);
    await hold.reached(k);
    child.kill('SIGINT');
    await taken();
    hold.release(k, 'forward');
    await hold.reached(k + 1); // the first write of putting back: removing the list it created
    child.kill('SIGINT');
    const r = await ended;
    hold.release(k + 1, 'fail'); // never reached the server: the client is gone
    await proxy.close();
    expect([r.status, r.signal, r.stdout]).toEqual([null, 'SIGINT', '']);
    expect(r.stderr).toBe(
      `edgesim: import into account ${acct} stopped at once by a second SIGINT: list "office", the out-of-state TCP filters, the SYN flood rules, the allowlist entries, the prefixes, the protection status hold the file's content; `
      + 'list "labs" is part-way between the account\'s and the file\'s (see edgesim export); everything else is as it was before the import\n',
    );
    const after = await exportSnapshot(target(acct));
    const { rulesets: _r, lists, ...rest } = FILE;
    expect(describePlan(await planImport({ ...rest, lists: lists?.filter((l) => l.name === 'office') }, target(acct)))).toBe('No changes. The account already holds what the file names.\n');
    expect(after.lists?.find((l) => l.name === 'labs')?.items).toEqual([]); // created, its item not yet added
    expect(withoutServerFields(after.rulesets)).toEqual(withoutServerFields(before.rulesets));
  });
});
