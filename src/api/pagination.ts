// Page-number pagination as the vendor's v4 lists do it: `page` (1-based), `per_page`, `order` (a
// field name) and `direction` (ASC|DESC). A page past the end is an empty array, which is what
// tells the official SDK's `for await` loop to stop (it ignores total_pages).
// Cursor pagination (the rulesets list, a list's items): `cursor` (opaque; here the offset of the
// page's first item, base64url) and `per_page`; each route spells the next and previous cursors as
// the vendor's endpoint does.
import { ApiError } from './errors.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 1000;

export interface PageQuery {
  page?: string;
  per_page?: string;
  order?: string;
  direction?: string;
}

/** The vendor's result_info for page-number lists. */
export interface PageInfo {
  page: number;
  per_page: number;
  count: number;
  total_count: number;
  total_pages: number;
}

function positive(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9][0-9]{0,8}$/.test(text) || Number(text) > max) {
    throw new ApiError('invalid_query', `${name}: must be a whole number from 1 to ${max} (got ${JSON.stringify(text)})`);
  }
  return Number(text);
}

/** One page of a cursor list: its items and the cursors of the pages after and before it (none at an end). */
export interface CursorPage<T> {
  result: T[];
  perPage: number;
  after?: string;
  before?: string;
}

const cursorAt = (offset: number): string => Buffer.from(String(offset)).toString('base64url');

/** The page of `items` that `query.cursor` (absent: the first) and `query.per_page` select. */
export function cursorPage<T>(items: readonly T[], query: { cursor?: string; per_page?: string }, defaultPerPage: number, maxPerPage: number): CursorPage<T> {
  const perPage = positive('per_page', query.per_page, defaultPerPage, maxPerPage);
  let start = 0;
  if (query.cursor !== undefined) {
    const decoded = Buffer.from(query.cursor, 'base64url').toString('utf8');
    if (!/^(0|[1-9][0-9]*)$/.test(decoded)) throw new ApiError('invalid_query', `cursor: ${JSON.stringify(query.cursor)} is not a cursor this API returned`);
    start = Number(decoded);
  }
  const page: CursorPage<T> = { result: items.slice(start, start + perPage), perPage };
  if (start + perPage < items.length) page.after = cursorAt(start + perPage);
  if (start > 0) page.before = cursorAt(Math.max(0, start - perPage));
  return page;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return String(a) < String(b) ? -1 : 1;
}

/**
 * One page of `items`, sorted by `query.order` (one of `orderFields`, default `defaultOrder`) in
 * `query.direction`. Sorting is stable, so equal keys keep their creation order.
 */
export function paginate<T extends object>(
  items: readonly T[],
  query: PageQuery,
  orderFields: readonly string[],
  defaultOrder: string,
): { result: T[]; info: PageInfo } {
  const page = positive('page', query.page, 1, 1e9);
  const perPage = positive('per_page', query.per_page, DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const order = query.order ?? defaultOrder;
  if (!orderFields.includes(order)) {
    throw new ApiError('invalid_query', `order: must be one of ${orderFields.map((f) => JSON.stringify(f)).join(', ')} (got ${JSON.stringify(order)})`);
  }
  const direction = (query.direction ?? 'ASC').toUpperCase();
  if (direction !== 'ASC' && direction !== 'DESC') {
    throw new ApiError('invalid_query', `direction: must be "ASC" or "DESC" (got ${JSON.stringify(query.direction)})`);
  }
  const sign = direction === 'ASC' ? 1 : -1;
  const sorted = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => sign * compare((a.item as Record<string, unknown>)[order], (b.item as Record<string, unknown>)[order]) || a.index - b.index)
    .map((e) => e.item);
  const result = sorted.slice((page - 1) * perPage, page * perPage);
  return {
    result,
    info: { page, per_page: perPage, count: result.length, total_count: items.length, total_pages: Math.ceil(items.length / perPage) },
  };
}
