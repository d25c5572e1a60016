// `import` never destroys what it was not asked to touch: only the lists the file names, every
// check (lists used, logging, the server's rule limit) before the first write, a plan that writes
// nothing, and, when the server refuses a write part-way, the account put back as it was.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCredentials } from '../../src/api/credentials.js';
import type { RunningServer } from '../../src/api/server.js';
import { exportSnapshot, type ApiTarget } from '../../src/config/api-client.js';
import { describePlan, importSnapshot, planImport } from '../../src/config/import.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { ConfigItemError, UserError } from '../../src/errors.js';
import { call, cfg, start, tempDir, TOKEN } from '../api/helpers.js';
import { apiProxy, type Decision, type SeenRequest } from '../helpers/api-proxy.js';
import { runCliAsync } from '../helpers/cli.js';
import { IMPORT_FILE, seedAccount, withoutServerFields } from './helpers.js';

let server: RunningServer;
let n = 0;
const account = (): string => `imp${++n}`;
const target = (acct: string, url = server.url): ApiTarget => ({ url, account: acct, token: TOKEN });

beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());


/** A small account using every kind of resource, two lists and a ruleset that uses one of them. */
const seed = async (acct: string, url = server.url): Promise<void> => {
  await seedAccount(url, acct);
};

/** A file touching every resource the seed has, changing each. */
const FILE = IMPORT_FILE;

describe('import touches only what the file names', () => {
  it('a file naming one list replaces that list and leaves the account\'s other lists', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    await importSnapshot({ lists: [{ name: 'office', kind: 'ip', items: [{ ip: '172.16.0.9', comment: 'new' }] }] }, target(acct));
    const after = await exportSnapshot(target(acct));
    expect(after.lists?.map((l) => [l.name, l.items?.map((i) => i.ip)])).toEqual([['office', ['172.16.0.9']], ['partners', ['198.51.100.7']]]);
    expect(after.lists?.[0].id).toBe(before.lists?.[0].id); // the same list, its items replaced
    expect(withoutServerFields(after.rulesets)).toEqual(withoutServerFields(before.rulesets));
  });

  it('rules may use the account\'s lists the file does not carry', async () => {
    const acct = account();
    await seed(acct);
    await importSnapshot({ rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $partners' }] }] }, target(acct));
    expect((await exportSnapshot(target(acct))).rulesets?.[0].rules?.map((r) => r.expression)).toEqual(['ip.src in $partners']);
  });
});

describe('checks before the first write', () => {
  it('a list neither in the file nor in the account, and logging on a block rule, are refused with the file\'s path; nothing changes', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const unknown = await importSnapshot({ prefixes: [], rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $nowhere' }] }] }, target(acct), 'f.json').catch((e: Error) => e);
    expect(unknown).toBeInstanceOf(ConfigItemError);
    expect((unknown as Error).message).toMatch(/^f\.json: rulesets\[0\]\.rules\[0\]\.expression: .*\$nowhere/);
    const logging = await importSnapshot({ prefixes: [], rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'tcp.dstport == 1', logging: { enabled: true } }] }] }, target(acct), 'f.json').catch((e: Error) => e);
    expect((logging as Error).message).toBe('f.json: rulesets[0].rules[0].logging: only a "skip" rule takes logging (this rule\'s action is "block")');
    expect(await exportSnapshot(target(acct))).toEqual(before);
  });

  it('more rules than the server takes (serve --max-rules) is refused before any write; the account is exactly as before', async () => {
    const small = await start({ maxRules: 2 });
    try {
      const acct = account();
      await seed(acct, small.url); // its 3-rule ruleset is refused there; the one below is kept
      await call('POST', `${small.url}/accounts/${acct}/rulesets`, { name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'tcp.dstport == 1' }] });
      const before = await exportSnapshot(target(acct, small.url));
      const err = await importSnapshot(FILE_WITH_RULES(3), target(acct, small.url), 'f.json').catch((e: Error) => e);
      expect(err).toBeInstanceOf(ConfigItemError);
      expect((err as Error).message).toBe(`f.json: rulesets[0].rules: the API at ${small.url} takes fewer rules per ruleset (must have at most 2 items (got 3))`);
      expect(await exportSnapshot(target(acct, small.url))).toEqual(before);
      await importSnapshot(FILE_WITH_RULES(2), target(acct, small.url));
      expect((await exportSnapshot(target(acct, small.url))).prefixes).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('credentials that may only read', () => {
  it('are refused before the first write, even for a file without rulesets; the account is unchanged', async () => {
    const guarded = await start({ credentials: parseCredentials({ tokens: [{ token: 'w', accounts: { '*': 'write' } }, { token: 'r', accounts: { '*': 'read' } }] }, 'test') });
    try {
      await call('POST', `${cfg(guarded.url, 'ro')}/prefixes`, { prefix: '10.0.0.0/8' }, { authorization: 'Bearer w' });
      const reader = { url: guarded.url, account: 'ro', token: 'r' };
      const before = await exportSnapshot(reader);
      const err = await importSnapshot({ prefixes: [] }, reader).catch((e: Error) => e);
      expect((err as Error).message).toMatch(/^PUT http:\/\/\S+\/accounts\/ro\/rulesets\/phases\/magic_transit\/entrypoint: HTTP 403: /);
      expect(await exportSnapshot(reader)).toEqual(before);
    } finally {
      await guarded.close();
    }
  });
});

function FILE_WITH_RULES(count: number): Snapshot {
  return { prefixes: [], rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: Array.from({ length: count }, (_, i) => ({ action: 'block' as const, expression: `tcp.dstport == ${i + 1}` })) }] };
}

describe('--dry-run', () => {
  it('plans as terraform does, object by object, and changes nothing', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const plan = await planImport(FILE, target(acct));
    expect(describePlan(plan)).toBe([
      '  ~ protection status: on -> off',
      '  ~ prefix 10.0.0.0/16',
      '  + prefix 192.0.2.0/24',
      '  - prefix 10.1.0.0/16',
      '  - allowlist entry 203.0.113.0/26',
      '  ~ SYN flood rule global "global"',
      '  + out-of-state TCP filter "ip.dst in { 198.51.100.0/24 }"',
      '  - out-of-state TCP filter "ip.dst in { 203.0.113.0/24 }"',
      '  ~ list "office": 2 items -> 1 item',
      '  + list "labs" (1 item)',
      '  ~ ruleset "fw": 3 rules -> 2 rules',
      '',
      'Plan: 3 to add, 5 to change, 3 to destroy.',
      '',
    ].join('\n'));
    expect(await exportSnapshot(target(acct))).toEqual(before);
    // once imported, the same file plans nothing
    await importSnapshot(FILE, target(acct));
    expect(describePlan(await planImport(FILE, target(acct)))).toBe('No changes. The account already holds what the file names.\n');
  });

  it('edgesim import --dry-run prints the plan and exits 0 without writing', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const file = path.join(tempDir('edgesim-import-'), 'plan.json');
    writeFileSync(file, JSON.stringify({ lists: [{ name: 'labs', kind: 'ip', items: [{ ip: '192.0.2.1' }] }] }));
    const r = await runCliAsync(['import', file, '--api', server.url, '--account', acct, '--token', TOKEN, '--dry-run']);
    expect(r).toMatchObject({
      status: 0,
      stderr: '',
      stdout: '  + list "labs" (1 item)\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n\nChecked by the API with dry_run=true: list "labs" (not its items, as the list does not exist until it is created).\n',
    });
    expect(await exportSnapshot(target(acct))).toEqual(before);
  });
});

/** Forwards to `upstream`, answering the `fail`-th write (and every later one, with `andAfter`) with a 500 instead. */
async function failingProxy(upstream: string, fail: number, andAfter = false): Promise<{ url: string; writes: () => number; close: () => Promise<void> }> {
  const proxy = await apiProxy(upstream, ({ write }) => (write !== undefined && (write === fail || (andAfter && fail > 0 && write > fail)) ? 'fail' : 'forward'));
  return { url: proxy.url, writes: () => proxy.seen.filter((r) => r.write !== undefined).length, close: proxy.close };
}

describe('a write refused part-way', () => {
  it('whichever write the server refuses, the account ends as it was (up to new ids), and the error says so', async () => {
    const counting = await failingProxy(server.url, 0);
    const probe = account();
    await seed(probe);
    await importSnapshot(FILE, target(probe, counting.url));
    const total = counting.writes();
    await counting.close();
    expect(total).toBeGreaterThan(10);
    // request 1 asks the server about its rule limit (a body it refuses, so nothing is written); the writes follow
    for (let fail = 2; fail <= total; fail++) {
      const acct = account();
      await seed(acct);
      const before = await exportSnapshot(target(acct));
      const proxy = await failingProxy(server.url, fail);
      const err = await importSnapshot(FILE, target(acct, proxy.url)).catch((e: Error) => e);
      await proxy.close();
      expect(err, `write ${fail} of ${total}`).toBeInstanceOf(UserError);
      expect((err as Error).message, `write ${fail} of ${total}`)
        .toMatch(new RegExp(`^import into account ${acct} stopped at .+: [A-Z]+ http\\S+: HTTP 500: injected failure; (put back .+: )?the account is as it was before the import$`));
      expect(withoutServerFields(await exportSnapshot(target(acct))), `write ${fail} of ${total}`).toEqual(withoutServerFields(before));
    }
  });

  it('when putting back fails too, the error says what could not be put back, and what the refused write left as it was', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    // write 2 (the protection status) is answered, write 3 (emptying the prefixes) and every later one (the putting back) fail
    const proxy = await failingProxy(server.url, 3, true);
    const err = await importSnapshot(FILE, target(acct, proxy.url)).catch((e: Error) => e);
    await proxy.close();
    expect((err as Error).message).toBe(
      `import into account ${acct} stopped at the prefixes: DELETE ${cfg(proxy.url, acct, 'magic')}/prefixes: HTTP 500: injected failure; `
      + `could not put back the protection status (PATCH ${cfg(proxy.url, acct, 'magic')}/tcp_protection_status: HTTP 500: injected failure): `
      + "it is part-way between the account's and the file's (see edgesim export); everything else is as it was before the import",
    );
    const after = await exportSnapshot(target(acct));
    expect(after.tcp_protection_status).toEqual({ enabled: false }); // as the file has it
    expect({ ...after, tcp_protection_status: undefined }).toEqual({ ...before, tcp_protection_status: undefined });
  });

});

/** Resolves when `proxy` has been asked for write number `n`, with a gate that holds it until opened. */
function holdWrite(n: number): { decide: (r: SeenRequest) => Promise<Decision>; reached: Promise<void>; release: (d: Decision) => void } {
  let reach!: () => void;
  let release!: (d: Decision) => void;
  const reached = new Promise<void>((resolve) => { reach = resolve; });
  const released = new Promise<Decision>((resolve) => { release = resolve; });
  return {
    reached,
    release,
    decide: async (r) => {
      if (r.write !== n) return 'forward';
      reach();
      return released;
    },
  };
}

/** The number of the write that `pattern` (method and path) matches, in a reference import of `file` into a fresh seeded account. */
async function writeNumber(file: Snapshot, pattern: RegExp): Promise<number> {
  const acct = account();
  await seed(acct);
  const proxy = await apiProxy(server.url);
  await importSnapshot(file, target(acct, proxy.url));
  await proxy.close();
  const found = proxy.seen.find((r) => r.write !== undefined && pattern.test(`${r.method} ${r.url}`));
  if (found?.write === undefined) throw new Error(`no write matches ${pattern}`);
  return found.write;
}

describe('concurrent imports', () => {
  it('a refused import puts back only what still holds what it wrote, and names what someone else changed meanwhile', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const last = await writeNumber(FILE, /^PUT \S+\/rulesets\/[0-9a-f]{32}$/);
    const gate = holdWrite(last);
    const proxy = await apiProxy(server.url, gate.decide);
    const a = importSnapshot(FILE, target(acct, proxy.url)).catch((e: Error) => e);
    await gate.reached; // A has written everything but the ruleset, whose write is in flight
    // meanwhile, B imports other prefixes and items of "office" (acknowledged), and a third client re-creates
    // the SYN flood rules exactly as A wrote them (the same content, new ids)
    const b: Snapshot = { prefixes: [{ prefix: '198.18.0.0/15', comment: 'from B' }], lists: [{ name: 'office', kind: 'ip', description: 'office ranges', items: [{ ip: '172.16.0.77' }] }] };
    const bSummary = await importSnapshot(b, target(acct));
    const syn = `${cfg(server.url, acct)}/syn_protection/rules`;
    await call('DELETE', syn);
    await call('POST', syn, { scope: 'global', name: 'global', mode: 'enabled' });
    const recreated = (await exportSnapshot(target(acct))).syn_protection?.rules;
    gate.release('fail'); // A's ruleset write is refused
    const err = await a;
    await proxy.close();
    expect((err as Error).message).toBe(
      `import into account ${acct} stopped at the root ruleset: PUT ${proxy.url}/accounts/${acct}/rulesets/${before.rulesets?.[0].id}: HTTP 500: injected failure; `
      + 'put back list "labs", the out-of-state TCP filters, the allowlist entries, the protection status; '
      + 'left list "office", the SYN flood rules, the prefixes as they are: someone else changed them after this import wrote them; everything else is as it was before the import',
    );
    const after = await exportSnapshot(target(acct));
    // what B and the third client wrote, and were told was written, is still there
    expect(describePlan(await planImport(b, target(acct)))).toBe('No changes. The account already holds what the file names.\n');
    expect(bSummary.replaced.map((r) => r.key)).toEqual(['prefixes', 'lists']);
    expect(after.syn_protection?.rules).toEqual(recreated);
    // everything else is as it was before A
    const others = (s: Snapshot) => withoutServerFields({ ...s, prefixes: undefined, lists: s.lists?.filter((l) => l.name !== 'office'), syn_protection: { ...s.syn_protection, rules: undefined } });
    expect(others(after)).toEqual(others(before));
  });

  it('an import whose resource someone else rewrites before it reads it back says so, even when they wrote the same rules (a new version)', async () => {
    const acct = account();
    await seed(acct);
    const file: Snapshot = { prefixes: [{ prefix: '192.0.2.0/24' }], rulesets: FILE.rulesets?.map((rs) => ({ ...rs, rules: [{ action: 'block', expression: 'ip.src in $partners' }] })) };
    const last = await writeNumber(file, /^PUT \S+\/rulesets\/[0-9a-f]{32}$/);
    let reach!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => { reach = resolve; });
    const released = new Promise<void>((resolve) => { release = resolve; });
    let lastSeen = false;
    // hold the first read after the last write: the import's reading back
    const proxy = await apiProxy(server.url, async (r): Promise<Decision> => {
      if (r.write === last) lastSeen = true;
      else if (lastSeen && r.method === 'GET') {
        lastSeen = false;
        reach();
        await released;
      }
      return 'forward';
    });
    const a = importSnapshot(file, target(acct, proxy.url)).catch((e: Error) => e);
    await reached;
    const rs = (await exportSnapshot(target(acct))).rulesets?.[0];
    await call('PUT', `${server.url}/accounts/${acct}/rulesets/${rs?.id}`, { rules: [{ action: 'block', expression: 'ip.src in $partners' }] });
    release();
    const err = await a;
    await proxy.close();
    expect((err as Error).message).toBe(
      `import into account ${acct} wrote everything the file names, but the root ruleset was changed by someone else during the import and holds what they wrote (see edgesim export); everything else holds the file's content`,
    );
  });
});

describe('a dry run sends no write', () => {
  it('only reads, and dry_run=true writes the server checks: each list and the ruleset, which the plan says', async () => {
    const acct = account();
    await seed(acct);
    const before = await exportSnapshot(target(acct));
    const proxy = await apiProxy(server.url);
    const file = path.join(tempDir('edgesim-import-'), 'f.json');
    const rulesets = [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $office' }] }];
    writeFileSync(file, JSON.stringify({ ...FILE, rulesets }));
    const r = await runCliAsync(['import', file, '--api', proxy.url, '--account', acct, '--token', TOKEN, '--dry-run']);
    await proxy.close();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}~ protection status: on -> off\n[^]*\nPlan: 3 to add, 5 to change, 3 to destroy\.\n\n/);
    expect(r.stdout.split('Plan: ')[1]).toBe('3 to add, 5 to change, 3 to destroy.\n\n'
      + 'Checked by the API with dry_run=true: list "office", list "labs" (not its items, as the list does not exist until it is created), the root ruleset.\n'
      + 'Checked here only (the API has no dry run for them, or cannot check them before the other writes): the protection status, the prefixes, the allowlist entries, the SYN flood rules, the out-of-state TCP filters.\n');
    expect(proxy.seen.filter((s) => s.method !== 'GET').map((s) => `${s.method} ${s.url.replace(/^.*\/accounts\/[^/]+/, '').replace(/[0-9a-f]{32}/, 'ID')}`)).toEqual([
      'PUT /rules/lists/ID/items?dry_run=true',
      'POST /rules/lists?dry_run=true',
      'PUT /rulesets/phases/magic_transit/entrypoint?dry_run=true',
    ]);
    expect(await exportSnapshot(target(acct))).toEqual(before);
    // a ruleset that reads a list the import creates cannot be sent before that list exists: said, in words
    writeFileSync(file, JSON.stringify({ ...FILE, rulesets: [{ ...rulesets[0], rules: [{ action: 'block', expression: 'ip.src in $labs' }] }] }));
    const uses = await runCliAsync(['import', file, '--api', server.url, '--account', acct, '--token', TOKEN, '--dry-run']);
    expect(uses.status).toBe(0);
    expect(uses.stdout).toMatch(/\nChecked here only \([^)]*\): the protection status, .*, the root ruleset \(it uses lists this import creates first: \$labs\)\.\n$/);
    expect(await exportSnapshot(target(acct))).toEqual(before);
  });

  it('against a server that does not take dry_run, sends nothing but reads, and says what was not checked', async () => {
    const acct = account();
    await seed(acct);
    // a server that ignores dry_run: the proxy drops it from reads, and fails the test on any write
    const proxy = await apiProxy(server.url, (r) => (r.method === 'GET' ? { url: r.url.replace(/[?&]dry_run=[^&]*/, '') } : 'fail'));
    const file = path.join(tempDir('edgesim-import-'), 'f.json');
    writeFileSync(file, JSON.stringify(FILE));
    const r = await runCliAsync(['import', file, '--api', proxy.url, '--account', acct, '--token', TOKEN, '--dry-run']);
    await proxy.close();
    expect(proxy.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('Plan: ')[1]).toBe('3 to add, 5 to change, 3 to destroy.\n\n'
      + `Checked here only, as the API at ${proxy.url} does not take dry_run=true, so nothing was sent to it (neither its rule limit nor what these credentials may write was checked): `
      + 'the protection status, the prefixes, the allowlist entries, the SYN flood rules, the out-of-state TCP filters, list "office", list "labs", the root ruleset.\n');
  });

  it('with credentials that may only read, prints the plan, says the API would not check it, and exits 0', async () => {
    const guarded = await start({ credentials: parseCredentials({ tokens: [{ token: 'w', accounts: { '*': 'write' } }, { token: 'r', accounts: { '*': 'read' } }] }, 'test') });
    try {
      await call('POST', `${guarded.url}/accounts/ro/rules/lists`, { name: 'office', kind: 'ip' }, { authorization: 'Bearer w' });
      const file = path.join(tempDir('edgesim-import-'), 'f.json');
      writeFileSync(file, JSON.stringify({ lists: [{ name: 'office', kind: 'ip', items: [{ ip: '10.0.0.1' }] }] }));
      const r = await runCliAsync(['import', file, '--api', guarded.url, '--account', 'ro', '--token', 'r', '--dry-run']);
      expect(r).toMatchObject({ status: 0, stderr: '' });
      expect(r.stdout).toMatch(/^ {2}~ list "office": 0 items -> 1 item\n\nPlan: 0 to add, 1 to change, 0 to destroy\.\n\nChecked here only, as the API refused to check the writes with these credentials: PUT http:\/\/\S+\/accounts\/ro\/rules\/lists\/[0-9a-f]{32}\/items\?dry_run=true: HTTP 403: these credentials may not write account "ro": list "office"\.\n$/);
    } finally {
      await guarded.close();
    }
  });

  it('more rules than the server takes is the dry run\'s error, found with dry_run=true', async () => {
    const small = await start({ maxRules: 2 });
    try {
      const acct = account();
      const proxy = await apiProxy(small.url);
      const file = path.join(tempDir('edgesim-import-'), 'f.json');
      writeFileSync(file, JSON.stringify(FILE_WITH_RULES(3)));
      const r = await runCliAsync(['import', file, '--api', proxy.url, '--account', acct, '--token', TOKEN, '--dry-run']);
      await proxy.close();
      expect(r).toMatchObject({ status: 1, stdout: '', stderr: `edgesim: ${file}: rulesets[0].rules: the API at ${proxy.url} takes fewer rules per ruleset (must have at most 2 items (got 3))\n` });
      expect(proxy.seen.filter((s) => s.write !== undefined)).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
