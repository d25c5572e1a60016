// Output paths that would destroy input or each other: `--out same.pcap --write-dropped same.pcap`,
// or an output equal to the capture being read, would lose data, so they are refused up front.
// A file is the same file however it is spelled: through a link, a hard link, `..` or a relative path.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

function identity(path: string): string {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** A file a command reads or writes: how to name it in a message (`--out`, `the capture`) and its path ('-' is a standard stream). */
export type NamedFile = readonly [name: string, path: string | undefined];

/** The first output that is the same file as an input or as an earlier output (its index), and the name of that other file; null when there is none. */
export function firstClash(inputs: readonly NamedFile[], outputs: readonly NamedFile[]): { output: number; other: string } | null {
  const seen = new Map<string, string>();
  for (const [name, path] of inputs) if (path !== undefined && path !== '-') seen.set(identity(path), name);
  for (const [i, [name, path]] of outputs.entries()) {
    if (path === undefined || path === '-') continue;
    const id = identity(path);
    const other = seen.get(id);
    if (other !== undefined) return { output: i, other };
    seen.set(id, name);
  }
  return null;
}

/** Throws a UsageError when an output is the same file as one of the inputs or as another output. */
export function distinctFiles(inputs: readonly NamedFile[], outputs: readonly NamedFile[]): void {
  const clash = firstClash(inputs, outputs);
  if (clash === null) return;
  const [name, path] = outputs[clash.output]!;
  throw new UsageError(`${name} ${path!}: the same file as ${clash.other}; give each output its own file`);
}

/**
 * Throws a UsageError when two of the named output paths, or an output and the input (a capture, or
 * one of several), are the same file, or when one capture is given twice (its packets would be read twice).
 */
export function distinctPaths(input: string | readonly string[] | undefined, outputs: readonly NamedFile[]): void {
  const captures = typeof input === 'string' || input === undefined ? [input] : input;
  const twice = firstClash([], captures.map((path) => ['the capture', path] as const));
  if (twice !== null) throw new UsageError(`${captures[twice.output]!}: the same capture is given twice; give each capture once`);
  distinctFiles(captures.map((path) => ['the capture', path] as const), outputs);
}
