// Outputs over inputs: every file a command reads (a capture and its label sidecar, --config files, a
// suite and what it names, a summary, a saved baseline...) is an input that no output may replace, and
// no two outputs may be one file (`--out F --labels F` would lose one). This is the one check every
// command's outputs go through:
//   - before any action runs, `claimCommandFiles` takes the command's file options and arguments by
//     their role (FILE_OPTIONS, FILE_ARGUMENTS: the same flag names mean the same things everywhere),
//     a capture bringing its label sidecar `<capture>.labels.ndjson` (read by replay and test, written
//     by synth), whether or not it exists yet;
//   - what only the action learns (the files a suite names, the golden files --update writes, synth's
//     label file, pin's golden) goes through `reads` and `writes` as soon as it is known, before
//     anything is written.
// A file is the same file however it is spelled: through a symbolic link, a hard link, `..` or a
// relative path (device and inode when it exists, else the real path of its folder). Standard streams
// (`-`) and special files (a terminal, /dev/null, a pipe) are never an input's replacement.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { labelsPathFor } from '../capture/synth/label-path.js';
import { UsageError } from '../errors.js';
import { printable } from '../terminal-text.js';

/** The key of a file however it is spelled; null for a special file (a device, a pipe, a socket). */
function identity(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isFile() || st.isDirectory() ? `${st.dev}:${st.ino}` : null;
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
  for (const [name, path] of inputs) {
    const id = path === undefined || path === '-' ? null : identity(path);
    if (id !== null) seen.set(id, name);
  }
  for (const [i, [name, path]] of outputs.entries()) {
    const id = path === undefined || path === '-' ? null : identity(path);
    if (id === null) continue;
    const other = seen.get(id);
    if (other !== undefined) return { output: i, other };
    seen.set(id, name);
  }
  return null;
}


type Role = 'read' | 'capture' | 'write';

/** File options by their flag, the same role in every command that has them (a boolean `--json` is no file). */
const FILE_OPTIONS: Readonly<Record<string, Role>> = {
  '--config': 'read',
  '--against': 'read',
  '--plan': 'read',
  '--packet': 'read',
  '--atp-options': 'read',
  '--geoip': 'read',
  '--asn': 'read',
  '--compare': 'read',
  '--credentials': 'read',
  '--capture': 'capture',
  '--out': 'write',
  '--write-passed': 'write',
  '--write-dropped': 'write',
  '--write-changed': 'write',
  '--json': 'write',
  '--junit': 'write',
  '--summary': 'write',
  '--labels': 'write',
  '--save': 'write',
};

/** Command arguments by their name in the command's usage (one of several, `<suite...>` given twice or more, is named with its path). */
const FILE_ARGUMENTS: Readonly<Record<string, { role: Role; name: string }>> = {
  capture: { role: 'capture', name: 'the capture' },
  suite: { role: 'read', name: 'the suite' },
  snapshot: { role: 'read', name: 'the configuration' },
  'snapshot.json': { role: 'read', name: 'the snapshot' },
  config: { role: 'read', name: 'the configuration' },
  summary: { role: 'read', name: 'the summary' },
  scenario: { role: 'read', name: 'the flow spec' },
  input: { role: 'read', name: 'the capture' },
};

interface Claimed {
  name: string;
  path: string;
  /** identity(); null for a special file */
  id: string | null;
}

/** The running command's files (one command a process). */
const inputs: Claimed[] = [];
const outputs: Claimed[] = [];

function claimed(name: string, path: string | undefined): Claimed | null {
  if (path === undefined || path === '-' || path === '') return null;
  return { name, path, id: identity(path) };
}

function refuse(output: Claimed, other: Claimed): never {
  throw new UsageError(`${output.name} ${printable(output.path)}: the same file as ${printable(other.name)}; give each output its own file`);
}

const exists = (path: string): boolean => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * A file the command reads (`capture`: and its label sidecar); refused when an output claimed already
 * is that file. A path that names no file is no input (a scenario's name, a field=value), but a
 * label sidecar is one before it exists: what is written there is read as the capture's labels.
 */
export function reads(name: string, path: string | undefined, role: 'read' | 'capture' | 'sidecar' = 'read'): void {
  const file = claimed(name, path);
  if (file === null || file.id === null || (role !== 'sidecar' && !exists(file.path))) return;
  const output = outputs.find((o) => o.id === file.id);
  if (output !== undefined) refuse(output, file);
  inputs.push(file);
  if (role === 'capture') reads(`${name}'s label sidecar`, labelsPathFor(file.path), 'sidecar');
}

/** A file the command writes: refused (a usage error) when it is one of the files it reads, or another of its outputs. */
export function writes(name: string, path: string | undefined): void {
  const file = claimed(name, path);
  if (file === null || file.id === null) return;
  const input = inputs.find((i) => i.id === file.id);
  if (input !== undefined) refuse(file, input);
  const output = outputs.find((o) => o.id === file.id);
  if (output !== undefined) refuse(file, output);
  outputs.push(file);
}

const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Claims the command's file options and arguments by role, inputs first (the hook before every action). */
export function claimCommandFiles(command: Command): void {
  const values = command.opts();
  const given = command.options.flatMap((option) => {
    const role = option.long === undefined ? undefined : FILE_OPTIONS[option.long];
    return role === undefined ? [] : strings(values[option.attributeName()]).map((path) => ({ role, name: option.long!, path }));
  });
  const args = command.registeredArguments.flatMap((argument, i) => {
    const file = FILE_ARGUMENTS[argument.name()];
    const paths = strings(command.processedArgs[i]);
    // one of several is named with its path; a variadic argument given once is named as a single one
    return file === undefined ? [] : paths.map((path) => ({ role: file.role, name: paths.length > 1 ? `${file.name} ${path}` : file.name, path }));
  });
  for (const f of [...args, ...given]) if (f.role !== 'write') reads(f.name, f.path, f.role);
  for (const f of given) if (f.role === 'write') writes(f.name, f.path);
}

/** Refuses one capture given twice among several (its packets would be read twice), however its path is spelled. */
export function distinctCaptures(captures: readonly string[]): void {
  const twice = firstClash([], captures.map((path) => ['the capture', path] as const));
  if (twice !== null) throw new UsageError(`${printable(captures[twice.output]!)}: the same capture is given twice; give each capture once`);
}
