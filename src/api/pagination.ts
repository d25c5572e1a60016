// Page-number pagination as the vendor's v4 lists do it: `page` (1-based), `per_page`, `order` (a
// field name) and `direction` (ASC|DESC). A page past the end is an empty array, which is what
// tells the official SDK's `for await` loop to stop (it ignores total_pages).
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
