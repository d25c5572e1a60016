// `edgesim report`, run: read a saved replay summary, check that it is one (naming the first field
// that is not as `replay --format json` writes it), and render the page.
import { readFileSync } from 'node:fs';
import { parseJson } from '../../../config/json.js';
import { InputError, UserError } from '../../../errors.js';
import { renderHtmlReport } from '../../../report/render.js';
import { checkSummary } from '../../../report/summary-shape.js';
import { refusePageOnTerminal, writeOutput } from '../../output.js';

export interface ReportFlags {
  out?: string;
}

export async function run(summary: string, flags: ReportFlags): Promise<void> {
  refusePageOnTerminal(flags.out);
  const name = summary === '-' ? 'standard input' : summary;
  let text: string;
  try {
    text = readFileSync(summary === '-' ? 0 : summary, 'utf8');
  } catch (err) {
    throw new InputError(name, err);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw new UserError(`${(err as Error).message} (expected the output of \`edgesim replay CAPTURE --format json\`)`, { source: name });
  }
  const checked = checkSummary(value);
  if ('problem' in checked) {
    throw new UserError(`not a replay summary: ${checked.problem} (write one with \`edgesim replay CAPTURE --format json --out FILE\`)`, { source: name });
  }
  writeOutput(flags.out, renderHtmlReport(checked.data));
}
