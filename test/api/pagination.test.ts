// Cursor pagination (the rulesets list, a list's items): following `after` from the first page
// visits every item once, in order, whatever the page size; `before` leads back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorPage } from '../../src/api/pagination.js';

describe('cursorPage', () => {
  it('walking the after cursors yields every item once, in order; before goes back one page', () => {
    fc.assert(fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (items, perPage) => {
      const seen: number[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = cursorPage(items, { cursor, per_page: String(perPage) }, 20, 100);
        expect(page.result.length).toBeLessThanOrEqual(perPage);
        if (cursor !== undefined) expect(cursorPage(items, { cursor: page.before, per_page: String(perPage) }, 20, 100).result).toEqual(items.slice(seen.length - perPage, seen.length));
        seen.push(...page.result);
        cursor = page.after;
        pages++;
      } while (cursor !== undefined);
      expect(seen).toEqual(items);
      expect(pages).toBe(Math.max(1, Math.ceil(items.length / perPage)));
    }));
  });

  it('per_page is checked against the maximum and defaults', () => {
    expect(cursorPage([1, 2, 3], {}, 2, 5).result).toEqual([1, 2]);
    expect(() => cursorPage([1], { per_page: '6' }, 2, 5)).toThrow('per_page: must be a whole number from 1 to 5 (got "6")');
  });
});
