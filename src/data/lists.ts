// Named IP lists for `ip.src in $name`: the managed lists (`svc.anonymizer`, `svc.botnetcc`,
// `svc.malware`, `svc.open_proxies`, `svc.vpn`; the vendor's `cf.*` spelling is an alias) and the
// account lists of a configuration snapshot.
//
// Managed lists come from datasets/lists/<name>.txt, small SAMPLE files of documentation
// addresses, or from a folder of real feeds given with --lists (same file names; `cf.<name>.txt`
// also accepted). A feed is one address or CIDR per line, `#` starts a comment. Files are read the
// first time a rule refers to the list, so a configuration that uses none reads none; a bad line is
// an error naming file:line and the text, because a feed that silently lost entries would let
// traffic through.

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AccountList } from '../config/snapshot.js';
import { NetParseError, parseCidr } from '../net/cidr.js';
import { type IpSet, IpSetBuilder } from '../net/ip-set.js';
import { MANAGED_LISTS as LANGUAGE_MANAGED_LISTS } from '../lang/index.js';
import { datasetPath } from './datasets.js';
import { DataError } from './errors.js';
import { systemErrorText } from '../errors.js';

/** The managed lists, as the Rules language names them after `$`. */
export const MANAGED_LISTS: readonly string[] = LANGUAGE_MANAGED_LISTS.map((n) => `svc.${n}`);

/** Resolves list names (with or without `$`) to address sets; undefined for an unknown list. */
export interface ListRegistry {
  resolve(name: string): IpSet | undefined;
}

function addCidr(builder: IpSetBuilder, text: string): void {
  const c = parseCidr(text);
  if (c.family === 4) builder.addPrefix4(c.v4, c.len);
  else builder.addPrefix6(c.v6, c.len);
}

/** Parses a list feed's text; `file` names it in errors (DataError "file:line: ..."). */
export function parseListFile(text: string, file: string): IpSet {
  const builder = new IpSetBuilder();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const hash = lines[i].indexOf('#');
    const entry = (hash < 0 ? lines[i] : lines[i].slice(0, hash)).trim();
    if (entry === '') continue;
    try {
      addCidr(builder, entry);
    } catch (err) {
      if (err instanceof NetParseError) throw new DataError(`${file}:${i + 1}: ${err.message}`);
      throw err;
    }
  }
  return builder.build();
}

function accountListSet(list: AccountList, index: number): IpSet {
  const builder = new IpSetBuilder();
  (list.items ?? []).forEach((item, j) => {
    try {
      addCidr(builder, String(item.ip).trim());
    } catch (err) {
      if (err instanceof NetParseError) throw new DataError(`lists[${index}] (${list.name}) items[${j}]: ${err.message}`);
      throw err;
    }
  });
  return builder.build();
}

class Lists implements ListRegistry {
  private readonly managed = new Map<string, IpSet>();
  private readonly account = new Map<string, IpSet>();

  constructor(
    private readonly dir: string | undefined,
    accountLists: AccountList[],
    private readonly onSample: ((name: string) => void) | undefined,
  ) {
    if (dir !== undefined && !isDirectory(dir)) throw new DataError(`${dir}: not a folder of list feeds (--lists DIR)`);
    accountLists.forEach((list, i) => {
      if (list.kind === 'ip') this.account.set(list.name, accountListSet(list, i));
    });
  }

  resolve(name: string): IpSet | undefined {
    const bare = name.startsWith('$') ? name.slice(1) : name;
    const canonical = bare.startsWith('cf.') ? `svc.${bare.slice(3)}` : bare;
    if (MANAGED_LISTS.includes(canonical)) return this.loadManaged(canonical);
    return this.account.get(bare);
  }

  private loadManaged(name: string): IpSet {
    let set = this.managed.get(name);
    if (set === undefined) {
      const file = this.dir === undefined ? datasetPath(`lists/${name}.txt`) : this.feedFile(name);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new DataError(`${file}: cannot read list $${name} (${systemErrorText(err)})`);
      }
      set = parseListFile(text, file);
      this.managed.set(name, set);
      if (this.dir === undefined) this.onSample?.(name);
    }
    return set;
  }

  private feedFile(name: string): string {
    const dir = this.dir!;
    const candidates = [`${name}.txt`, `cf.${name.slice(4)}.txt`].map((f) => path.join(dir, f));
    const found = candidates.find((f) => isFile(f));
    if (found === undefined) throw new DataError(`${dir}: no feed for $${name} (expected ${name}.txt or cf.${name.slice(4)}.txt)`);
    return found;
  }
}

function isDirectory(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
}

function isFile(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * Managed lists from the bundled samples or `dir`, plus the snapshot's account lists of kind `ip`.
 * Throws DataError for a missing `dir` or a bad account-list item; list files are read on first use.
 * `onSample` hears each managed list read from the bundled samples (no `dir`): a run says so.
 */
export function createListRegistry(opts: { dir?: string; accountLists?: AccountList[]; onSample?: (name: string) => void }): ListRegistry {
  return new Lists(opts.dir, opts.accountLists ?? [], opts.onSample);
}

/** What a run says when a rule reads a bundled sample (once a list). */
export function sampleListNote(name: string): string {
  return `a rule reads $${name}: edgesim's bundled SAMPLE of it (documentation addresses, not a real feed); give real feeds with --lists DIR`;
}

