// The small checks parseSpec makes on parsed JSON values: each throws a SpecError whose message
// starts with the path of the value (`parts[2].rate: ...`), so every report names the bad key.
import { SpecError } from './spec-error.js';

export type Obj = Record<string, unknown>;

export function fail(path: string, msg: string): never {
  throw new SpecError(path ? `${path}: ${msg}` : msg);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v);
  return typeof v === 'object' ? 'an object' : String(v);
}

export function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}

export function checkKeys(o: Obj, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(o)) {
    if (allowed.includes(key)) continue;
    const near = allowed.filter((k) => distance(k, key) <= 2);
    fail(`${path}${path ? '.' : ''}${key}`, `unknown key${near.length ? ` (did you mean "${near[0]}"?)` : `; expected one of ${allowed.join(', ')}`}`);
  }
}

export function object(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, `expected an object, got ${describe(v)}`);
  return v as Obj;
}

export function number(v: unknown, path: string, min: number, max: number, integer: boolean, minExclusive = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, `expected a number, got ${describe(v)}`);
  if (integer && !Number.isInteger(v)) fail(path, `expected a whole number, got ${v}`);
  if ((minExclusive ? v <= min : v < min) || v > max) fail(path, `${v} is out of range (${minExclusive ? `more than ${min}` : `at least ${min}`}, at most ${max})`);
  return v;
}

export function stringList(v: unknown, path: string): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list)) fail(path, `expected a list of strings, got ${describe(v)}`);
  return list.map((s, i) => {
    if (typeof s !== 'string') fail(`${path}[${i}]`, `expected a string, got ${describe(s)}`);
    return s;
  });
}
