// Where a command's results and warnings go: results to stdout or to --out, warnings to stderr as
// `edgesim: warning: ...` lines. Errors never go through here: they are thrown as UserErrors and
// printed by cli/main.ts.
import { writeFileSync } from 'node:fs';
import { OutputError, UsageError } from '../errors.js';
import { printable } from '../terminal-text.js';

/** Writes a whole result to `out` (a file), or to stdout when out is missing or '-'. */
export function writeOutput(out: string | undefined, text: string): void {
  if (out === undefined || out === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(out, text);
  } catch (err) {
    throw new OutputError(out, err);
  }
}

/** Refuses to send a page (HTML) to a terminal, where it would be a screenful of markup. */
export function refusePageOnTerminal(out: string | undefined): void {
  if ((out === undefined || out === '-') && process.stdout.isTTY === true) {
    throw new UsageError('an HTML page is not for the terminal: give --out FILE (or redirect standard output to a file)');
  }
}

export function warn(message: string): void {
  process.stderr.write(`edgesim: warning: ${printable(message)}\n`);
}

/** Prints the warning, if there is one. */
export function warnIf(message: string | undefined): void {
  if (message !== undefined) warn(message);
}

/** Prints warnings, each prefixed with `source: ` when one is given (e.g. the capture file). */
export function printWarnings(source: string | undefined, warnings: readonly string[]): void {
  for (const w of warnings) warn(source === undefined ? w : `${source}: ${w}`);
}
