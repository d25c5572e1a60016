// Output paths that would destroy input or each other: `--out same.pcap --write-dropped same.pcap`,
// or an output equal to the capture being read, would lose data, so they are refused up front.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';

function identity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Throws a UsageError when two of the named output paths, or an output and the input, are the same file. */
export function distinctPaths(input: string | undefined, outputs: ReadonlyArray<readonly [flag: string, path: string | undefined]>): void {
  const seen = new Map<string, string>();
  if (input !== undefined && input !== '-') seen.set(identity(input), 'the capture');
  for (const [flag, path] of outputs) {
    if (path === undefined || path === '-') continue;
    const id = identity(path);
    const other = seen.get(id);
    if (other !== undefined) throw new UsageError(`${flag} ${path}: the same file as ${other}; give each output its own file`);
    seen.set(id, flag);
  }
}
