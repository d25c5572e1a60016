// The items of an account's IP lists live in an append-only log beside the account file
// (`<account>.items.ndjson`), because a list holds up to 100,000 items (about 17 MB of JSON) and
// rewriting them all for every one-item add made each add cost a 17 MB write. Each write of items
// appends one line saying what changed; the account file keeps everything else.
//
// A line is one change to one list: `add` (items created or updated, fully formed, matched by id),
// `set` (the list's items replaced), `remove` (items deleted, by id). Every change is idempotent, so
// replaying a line twice is harmless: a compaction may write the lists' current items while lines
// describing some of them are still queued. Lines for a list the account file does not hold (it
// was deleted) are ignored. Only the last line can be torn by a crash, and a torn last line was never
// acknowledged, so it is dropped. When the log holds more than twice as many item entries as the
// lists do (plus COMPACT_SLACK), the next write replaces it with one `set` line per list; so the log
// stays within a constant factor of the live items, and compaction's cost is amortised over the
// writes that bloated it.
import { VOCABULARY } from '../config/checks.js';
import { arrayOf, LIST_ITEM, storedSchema } from '../config/resources.js';
import { dottedPath, parseWithSchema, type JsonSchema } from '../config/schema.js';
import type { ListItem } from '../config/snapshot.js';
import { ConfigItemError } from '../errors.js';
import { CHUNK, yieldToOthers } from './event-loop.js';
import type { StoredList } from './state.js';

/** One change to the items of one list. */
export type ItemChange =
  | { list: string; op: 'add' | 'set'; items: ListItem[] }
  | { list: string; op: 'remove'; ids: string[] };

/** Where a write records its changes to list items (the store appends them to the log). */
export interface ItemChanges {
  record(change: ItemChange): void;
}

/** Item entries the log may hold beyond twice the live items before it is compacted. */
export const COMPACT_SLACK = 10_000;

/** How many item entries a change writes to the log. */
export function entries(change: ItemChange): number {
  return change.op === 'remove' ? change.ids.length : change.items.length;
}

/** Whether a log holding `written` item entries should be compacted, given the lists' live items. */
export function needsCompaction(written: number, lists: readonly StoredList[]): boolean {
  let live = 0;
  for (const list of lists) live += list.items.length;
  return written > 2 * live + COMPACT_SLACK;
}

const LINE: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['list', 'op'],
  properties: {
    list: { type: 'string' },
    op: { type: 'string', enum: ['add', 'set', 'remove'] },
    items: arrayOf(storedSchema(LIST_ITEM)),
    ids: arrayOf({ type: 'string' }),
  },
};

/**
 * The log lines for `changes`, each ending with a newline. Long item arrays are serialised a chunk
 * at a time with the event loop free in between, so a 100,000-item write does not stall every other
 * account for the time of one 17 MB JSON.stringify. The changes must not be mutated meanwhile
 * (`record` and `snapshotOf` copy the arrays; item objects are replaced, never changed in place).
 */
export async function logLines(changes: readonly ItemChange[]): Promise<string> {
  const out: string[] = [];
  for (const change of changes) {
    if (change.op === 'remove' || change.items.length <= CHUNK) {
      out.push(`${JSON.stringify(change)}\n`);
      continue;
    }
    const parts: string[] = [];
    for (let i = 0; i < change.items.length; i += CHUNK) {
      parts.push(JSON.stringify(change.items.slice(i, i + CHUNK)).slice(1, -1));
      await yieldToOthers();
    }
    out.push(`{"list":${JSON.stringify(change.list)},"op":${JSON.stringify(change.op)},"items":[${parts.join(',')}]}\n`);
  }
  return out.join('');
}

/** A change as the log keeps it: its own copy of the item array, which the list goes on changing. */
export function snapshotOf(change: ItemChange): ItemChange {
  return change.op === 'remove' ? { ...change, ids: change.ids.slice() } : { ...change, items: change.items.slice() };
}

/** The changes a compaction writes: one `set` per list. */
export function compaction(lists: readonly StoredList[]): ItemChange[] {
  return lists.map((l) => ({ list: l.id, op: 'set', items: l.items.slice() }));
}

/** Item positions by id, per items array, for a replay: an `add` looks up each item instead of scanning the list. */
type IdIndexes = WeakMap<ListItem[], Map<string | undefined, number>>;

/** Applies one change to the list it names (ignoring a list that no longer exists). */
function applyChange(lists: readonly StoredList[], change: ItemChange, indexes: IdIndexes): void {
  const list = lists.find((l) => l.id === change.list);
  if (!list) return;
  if (change.op === 'set') {
    list.items = change.items;
  } else if (change.op === 'add') {
    let at = indexes.get(list.items);
    if (!at) {
      at = new Map(list.items.map((item, i) => [item.id, i]));
      indexes.set(list.items, at);
    }
    for (const item of change.items) {
      const i = at.get(item.id);
      if (i === undefined) {
        at.set(item.id, list.items.length);
        list.items.push(item);
      } else list.items[i] = item;
    }
  } else if (change.op === 'remove') {
    const gone = new Set(change.ids);
    list.items = list.items.filter((item) => !gone.has(item.id as string));
  }
}

/**
 * Replays `text` (the log file's content) onto `lists` and returns how many item entries it holds;
 * a line that is not a valid change is a ConfigItemError naming `file` and the line, except a torn
 * last line, which is dropped.
 */
export function replayLog(text: string, lists: readonly StoredList[], file: string): number {
  let written = 0;
  const indexes: IdIndexes = new WeakMap();
  // the element after the last newline is '' or the torn last line: either way not replayed
  const lines = text.split('\n');
  for (let n = 0; n < lines.length - 1; n++) {
    if (lines[n] === '') continue;
    let doc: unknown;
    try {
      doc = JSON.parse(lines[n]);
    } catch (err) {
      throw new ConfigItemError(`line ${n + 1}`, `not a list-items change: ${(err as Error).message}`, file);
    }
    const { value, issues } = parseWithSchema(LINE, doc, VOCABULARY);
    const change = value as ItemChange;
    if (issues.length === 0 && change.op !== 'remove' && !Array.isArray((change as { items?: unknown }).items)) {
      issues.push({ path: ['items'], kind: 'required', message: 'is required' });
    }
    if (issues.length === 0 && change.op === 'remove' && !Array.isArray((change as { ids?: unknown }).ids)) {
      issues.push({ path: ['ids'], kind: 'required', message: 'is required' });
    }
    if (issues.length > 0) throw new ConfigItemError(`line ${n + 1}: ${dottedPath(issues[0].path)}`, issues[0].message.replace(/\n[\s\S]*$/, ''), file);
    applyChange(lists, change, indexes);
    written += entries(change);
  }
  return written;
}
