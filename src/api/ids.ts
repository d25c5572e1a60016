// Identifiers and timestamps as the vendor writes them: UUIDs for Advanced TCP Protection objects,
// 32 lowercase hex digits for rulesets, rules, lists and list items; ISO-8601 timestamps with
// microseconds. Timestamps are strictly increasing within the process, so sorting by `created_on`
// is sorting by creation order even for objects created in the same millisecond.
import { randomUUID } from 'node:crypto';

/** A random UUID (ATP objects). */
export function uuid(): string {
  return randomUUID();
}

/** 32 lowercase hex digits (rulesets, rules, lists, list items, bulk operations). */
export function hexId(): string {
  return randomUUID().replace(/-/g, '');
}

let lastMicros = 0;

/** Now, as `2024-05-01T12:00:00.123456Z`; never equal to or earlier than the previous call. */
export function timestamp(): string {
  const micros = Math.max(Math.floor((performance.timeOrigin + performance.now()) * 1000), lastMicros + 1);
  lastMicros = micros;
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}
