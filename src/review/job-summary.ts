// A command's Markdown summary for the CI job page: appended to the file GitHub Actions names in
// $GITHUB_STEP_SUMMARY (or to --summary FILE). GitHub refuses a step's summary over 1 MiB, so one
// command's part is cut to fit under that, saying so, and never cut inside a line.
import { appendFileSync } from 'node:fs';
import { InputError } from '../errors.js';

/** GitHub's limit for one step's summary. */
export const SUMMARY_LIMIT = 1024 * 1024;

/** The file a summary goes to: the flag's, else $GITHUB_STEP_SUMMARY's, else none. */
export function summaryFile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? (env.GITHUB_STEP_SUMMARY || undefined);
}

/** `markdown` cut at a line end so that it and the note of the cut take at most `limit` bytes. */
export function fitSummary(markdown: string, limit = SUMMARY_LIMIT - 1024): string {
  const text = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  if (Buffer.byteLength(text) <= limit) return text;
  const lines = text.split('\n');
  let kept = 0;
  let bytes = 0;
  const note = (cut: number): string => `\n_… ${cut} more lines cut to keep the summary under GitHub's 1 MiB limit._\n`;
  while (kept < lines.length && bytes + Buffer.byteLength(lines[kept]!) + 1 + Buffer.byteLength(note(lines.length - kept)) <= limit) {
    bytes += Buffer.byteLength(lines[kept]!) + 1;
    kept += 1;
  }
  return `${lines.slice(0, kept).join('\n')}\n${note(lines.length - 1 - kept)}`;
}

/** Appends `markdown` (fitted) to the summary file, if there is one; names the file when it cannot. */
export function appendJobSummary(markdown: string, file: string | undefined): void {
  if (file === undefined) return;
  try {
    appendFileSync(file, `${fitSummary(markdown)}\n`);
  } catch (err) {
    throw new InputError(file, err, 'cannot write the job summary');
  }
}
