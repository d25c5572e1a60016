// A command's Markdown summary for the CI job page: appended to the file GitHub Actions names in
// $GITHUB_STEP_SUMMARY (or to --summary FILE). GitHub drops a step's whole summary when that file
// passes 1 MiB, and several commands of one step append to the same file: so what the file
// already holds is counted, one command's part is cut to fit in what is left (saying so, never
// inside a line), and when not even that note fits nothing is appended and the caller is told.
import { appendFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { counted, groupDigits } from '../numbers.js';

/** GitHub's limit for one step's summary. */
export const SUMMARY_LIMIT = 1024 * 1024;

/** Bytes kept free under the limit (for a runner's own additions). */
const MARGIN = 1024;

/** The file a summary goes to: the flag's, else $GITHUB_STEP_SUMMARY's, else none. */
export function summaryFile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? (env.GITHUB_STEP_SUMMARY || undefined);
}

const note = (cut: number): string => `\n_… ${counted(cut, 'more line')} cut to keep the summary under GitHub's 1 MiB limit._\n`;

/**
 * `markdown` and a blank line after it, cut at a line end so that it and the note of the cut take
 * at most `limit` bytes; undefined when not even the note fits.
 */
export function fitSummary(markdown: string, limit = SUMMARY_LIMIT - MARGIN): string | undefined {
  const body = markdown.endsWith('\n') ? markdown.slice(0, -1) : markdown;
  const text = `${body}\n\n`;
  if (Buffer.byteLength(text) <= limit) return text;
  const lines = body.split('\n');
  let kept = 0;
  let bytes = 0;
  while (kept < lines.length && bytes + Buffer.byteLength(lines[kept]!) + 1 + Buffer.byteLength(note(lines.length - kept - 1)) + 1 <= limit) {
    bytes += Buffer.byteLength(lines[kept]!) + 1;
    kept += 1;
  }
  const cut = `${lines.slice(0, kept).map((l) => `${l}\n`).join('')}${note(lines.length - kept)}\n`;
  return Buffer.byteLength(cut) <= limit ? cut : undefined;
}

/**
 * Appends `markdown` (fitted in what the file leaves under GitHub's limit) to the summary file, if
 * there is one; names the file when it cannot be written. Returns a warning when nothing could be
 * appended because the file is already (nearly) full.
 */
export function appendJobSummary(markdown: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  let used = 0;
  try {
    used = statSync(file).size;
  } catch {
    // no file yet
  }
  const text = fitSummary(markdown, SUMMARY_LIMIT - MARGIN - used);
  if (text === undefined) return `${file}: the job summary already holds ${groupDigits(used)} bytes, too near GitHub's 1 MiB limit for this report (GitHub would drop the whole summary); nothing appended`;
  try {
    appendFileSync(file, text);
  } catch (err) {
    throw new InputError(file, err, 'cannot write the job summary');
  }
  return undefined;
}
