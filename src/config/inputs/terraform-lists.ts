// The account lists of a Terraform document: each `cloudflare_list` with its inline items (v5
// `items`, v4 `item` blocks) and the `cloudflare_list_item`s that name it. An item names its list
// by `list_id`, the list's id; a plan that creates the list knows that id only after apply, so
// there the item's list is the one its `list_id` refers to in the plan's configuration section
// (`expressions.list_id.references`). Lists are told apart by resource address, never merged; the
// network firewall reads IP lists, so lists of another kind (asn, hostname, redirect) are left
// out with one note, their items with them.
import { UserError } from '../../errors.js';
import { isObject } from './document.js';
import { itemIp, listItemOf, listOf } from './terraform-values.js';
import { references, type Resource } from './terraform-resources.js';

interface ListResource {
  resource: Resource;
  items: Array<Record<string, unknown>>;
}

/** What a plan knows only after apply, at `key` of a resource's after_unknown (true: the whole value). */
export function unknownAt(unknown: unknown, key: string): unknown {
  if (unknown === true) return true;
  return isObject(unknown) ? unknown[key] : undefined;
}

/** Whether any part of an after_unknown value is unknown. */
export function anyUnknown(unknown: unknown): boolean {
  if (unknown === true) return true;
  if (Array.isArray(unknown)) return unknown.some(anyUnknown);
  return isObject(unknown) && Object.values(unknown).some(anyUnknown);
}

function refuseUnknown(resource: Resource, what: string, file: string): never {
  throw new UserError(`${resource.address}: ${what} known only after apply (it depends on another resource); edgesim does not guess it`, { source: file });
}

/** The list a `cloudflare_list_item` belongs to, by its known `list_id`, else by what its `list_id` refers to in the configuration. */
function listOfItem(item: Resource, lists: readonly ListResource[], doc: Record<string, unknown>, file: string): ListResource {
  const id = item.values.list_id;
  const known = unknownAt(item.unknown, 'list_id') !== true && typeof id === 'string' && id !== '';
  const byId = known ? lists.find((l) => l.resource.values.id === id) : undefined;
  if (byId !== undefined) return byId;
  const refs = references(doc, item, 'list_id') ?? [];
  const candidates = lists.filter((l) => refs.some((ref) => refersTo(ref, l.resource, item.module)));
  const chosen = candidates.length === 1 ? candidates[0] : candidates.find((l) => l.resource.index !== undefined && l.resource.index === item.index);
  if (chosen !== undefined) return chosen;
  if (candidates.length > 1) {
    throw new UserError(`${item.address}: its list_id refers to ${candidates.map((l) => l.resource.address).join(' and ')}; edgesim cannot tell which list holds it`, { source: file });
  }
  const named = known ? `list_id ${JSON.stringify(id)} is not the id of a cloudflare_list in this file` : 'its list_id is known only after apply and refers to no cloudflare_list in this file';
  throw new UserError(`${item.address}: ${named}`, { source: file });
}

/** Whether a configuration reference (relative to `module`) names the list resource, or one of its instances. */
function refersTo(reference: string, list: Resource, module: string): boolean {
  if (list.module !== module) return false;
  const own = list.address.slice(module === '' ? 0 : module.length + 1);
  const resource = own.replace(/\[[^\]]*\]$/, '');
  const target = reference.endsWith('.id') ? reference.slice(0, -3) : reference;
  return target === own || target === resource;
}

/** The inline items of a `cloudflare_list`, checked to be known. */
function inlineItems(list: Resource, file: string): unknown[] {
  for (const key of ['items', 'item']) if (anyUnknown(unknownAt(list.unknown, key))) refuseUnknown(list, `its ${key === 'items' ? 'items are' : 'item blocks are'}`, file);
  return [...(Array.isArray(list.values.items) ? list.values.items : []), ...(Array.isArray(list.values.item) ? list.values.item : [])];
}

/** Where an item without an address was found, for the note that leaves it out. */
type Skipped = string[];

/** The items that hold an address; `where(i)` names item i for the note about the others. */
function ipItems(values: readonly unknown[], where: (i: number) => string, skipped: Skipped): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  values.forEach((v, i) => {
    if (itemIp(v) === undefined) skipped.push(where(i));
    else out.push(listItemOf(v));
  });
  return out;
}

/** The IP lists of `resources` with their items, in the order the lists are found; notes for what is left out. */
export function readLists(resources: readonly Resource[], doc: Record<string, unknown>, file: string, notes: string[]): Array<{ address: string; list: Record<string, unknown> }> {
  const lists: ListResource[] = [];
  const otherKinds: string[] = [];
  const skipped: Skipped = [];
  for (const r of resources.filter((x) => x.type === 'cloudflare_list')) {
    for (const key of ['name', 'kind']) if (unknownAt(r.unknown, key) === true) refuseUnknown(r, `its ${key} is`, file);
    const inline = inlineItems(r, file);
    if (r.values.kind !== 'ip') otherKinds.push(`${r.address} (${String(r.values.kind)})`);
    lists.push({ resource: r, items: r.values.kind === 'ip' ? ipItems(inline, (i) => `${r.address} items[${i}]`, skipped) : [] });
  }
  for (const item of resources.filter((x) => x.type === 'cloudflare_list_item')) {
    const list = listOfItem(item, lists, doc, file);
    if (list.resource.values.kind !== 'ip') continue;
    if (unknownAt(item.unknown, 'ip') === true) refuseUnknown(item, 'its ip is', file);
    list.items.push(...ipItems([item.values], () => item.address, skipped));
  }
  if (otherKinds.length > 0) notes.push(`${otherKinds.join(', ')}: not IP lists, left out with their items (the network firewall matches IP lists)`);
  if (skipped.length > 0) notes.push(`${skipped.join(', ')}: an item of an IP list without an ip (the API refuses it), left out`);
  return lists.filter((l) => l.resource.values.kind === 'ip').map((l) => ({ address: l.resource.address, list: { ...listOf(l.resource.values), items: l.items } }));
}
