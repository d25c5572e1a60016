// Golden files, the one kind of file a suite writes (`--update`). A golden file lives under the
// suite's folder: its path is relative, stays inside the folder when `..` and symbolic links are
// followed, and names a plain file or none yet; a symbolic link is refused, never followed. The new
// content is written to a temporary file beside the golden and renamed over it, so a run killed at
// any moment leaves the old golden or the new one, never a torn one. (That a golden is none of the
// suite's inputs is checked by `edgesim test`, which knows every file a run reads and writes.)
// Comparing reads both files a line at a time: a capture of millions of frames is never held whole.
import { createReadStream, existsSync, lstatSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { InputError, OutputError, UserError } from '../errors.js';
import { TextSink } from '../sim/outputs/text-sink.js';
import type { Located } from './source.js';

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** What makes `file` no place for a golden file of the suite in `dir`, or null when it is one. */
function placeProblem(file: string, dir: string): string | null {
  if (!isInside(file, dir)) return "is not under the suite's folder";
  let known = path.dirname(file);
  while (!existsSync(known)) known = path.dirname(known);
  const realDir = realpathSync(dir);
  const realKnown = realpathSync(known);
  if (realKnown !== realDir && !isInside(realKnown, realDir)) return "leads out of the suite's folder through a symbolic link";
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return null;
  }
  if (stat.isSymbolicLink()) return 'is a symbolic link (a golden file is a plain file, written in place)';
  if (stat.isDirectory()) return 'is a folder';
  return stat.isFile() ? null : 'is not a plain file';
}

/** The golden file a suite names at `at`, resolved against the suite's folder `dir`; a SuiteError when it cannot be one. */
export function goldenPath(at: Located, dir: string): string {
  if (at.type !== 'string' || at.value === '') at.fail(`expected the path of a golden NDJSON file (a string), got ${at.type}`);
  const name = at.value as string;
  if (name.includes('\0')) at.fail(`${JSON.stringify(name)}: a path cannot hold a NUL character`);
  if (path.isAbsolute(name)) at.fail(`${JSON.stringify(name)}: a golden file lives under the suite's folder: give its path relative to the suite`);
  const file = path.resolve(dir, name);
  const problem = placeProblem(file, dir);
  if (problem !== null) at.fail(`${JSON.stringify(name)} ${problem}`);
  return file;
}

/** A new golden being written: its temporary file beside the golden, renamed over it by commit(). */
export class GoldenDraft {
  /** the temporary file to write the new content to */
  readonly temp: string;

  constructor(
    readonly file: string,
    private readonly dir: string,
  ) {
    this.temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  }

  /** A writer of the temporary file; when it cannot be made, the error names the golden file. */
  writer(): TextSink {
    try {
      return new TextSink(this.temp);
    } catch (err) {
      throw err instanceof OutputError ? new OutputError(this.file, err.cause) : err;
    }
  }

  /** Replaces the golden with the temporary file (checked again: the folder may have changed since the suite was loaded). */
  commit(): void {
    const problem = placeProblem(this.file, this.dir);
    if (problem !== null) throw new UserError(`golden file not written: it ${problem}`, { source: this.file });
    try {
      renameSync(this.temp, this.file);
    } catch (err) {
      throw new OutputError(this.file, err);
    }
  }

  discard(): void {
    rmSync(this.temp, { force: true });
  }
}

/** How an actual NDJSON differs from a golden one. */
export interface GoldenDifference {
  /** frames whose lines differ (or that one side lacks) */
  changed: number;
  /** actual lines */
  lines: number;
  /** the first frame that differs (and its file, in the lines of merged captures), with both lines (null: no line) */
  first: { frame: number; file: string | null; expected: string | null; actual: string | null } | null;
}

function frameOf(line: string | null): number | null {
  const m = /^\{"frame":(\d+)/.exec(line ?? '');
  return m === null ? null : Number(m[1]);
}

/** The file a line of merged captures names after its frame, or null. */
function fileOf(line: string | null): string | null {
  const m = /^\{"frame":\d+,"file":("(?:[^"\\]|\\.)*")/.exec(line ?? '');
  return m === null ? null : (JSON.parse(m[1]!) as string);
}

/** A file's lines, and how to let go of the file whether or not they were all read. */
function lineReader(file: string): { lines: AsyncIterator<string>; close: () => void } {
  const input = createReadStream(file, 'utf8');
  const reader = createInterface({ input, crlfDelay: Infinity });
  return {
    lines: reader[Symbol.asyncIterator](),
    close: () => {
      reader.close();
      input.destroy();
    },
  };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string | null> {
  for (;;) {
    const r = await lines.next();
    if (r.done === true) return null;
    if (r.value !== '') return r.value;
  }
}

/** Compares an actual NDJSON file with the golden, line by line (empty lines ignored); the golden must exist. */
export async function compareGolden(actual: string, golden: string): Promise<GoldenDifference> {
  const a = lineReader(actual);
  const g = lineReader(golden);
  const diff: GoldenDifference = { changed: 0, lines: 0, first: null };
  try {
    for (let i = 1; ; i++) {
      const got = await nextLine(a.lines);
      const want = await nextLine(g.lines);
      if (got === null && want === null) return diff;
      if (got !== null) diff.lines++;
      if (got === want) continue;
      diff.changed++;
      diff.first ??= { frame: frameOf(got) ?? frameOf(want) ?? i, file: fileOf(got) ?? fileOf(want), expected: want, actual: got };
    }
  } catch (err) {
    throw new InputError(golden, err, 'cannot read the golden file');
  } finally {
    a.close();
    g.close();
  }
}
