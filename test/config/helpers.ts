// What the tests of configuration files share.

/** Keys the server assigns (ids, times, versions, counts): left out to compare what a user wrote. */
const SERVER_FIELDS = new Set(['id', 'created_on', 'modified_on', 'version', 'last_updated', 'num_items', 'num_referencing_filters']);

/** `value` without the keys the server assigns, at any depth. */
export function withoutServerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutServerFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SERVER_FIELDS.has(k)).map(([k, v]) => [k, withoutServerFields(v)]));
  }
  return value;
}
