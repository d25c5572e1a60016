// `edgesim match`, run: the expression becomes a one-rule path; the frames it matches are printed.
import { UserError } from '../../../errors.js';
import { FilterError, parse, settingsFor } from '../../../lang/index.js';
import { buildExpressionPath } from '../../../sim/build.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings } from '../../output.js';

export interface MatchFlags extends ConfigFlags, DataFlags {
  count?: boolean;
}

export async function run(capture: string, expression: string, flags: MatchFlags): Promise<void> {
  try {
    const { scheme, limits } = settingsFor('rule');
    parse(expression, scheme, limits);
  } catch (err) {
    if (err instanceof FilterError) throw new UserError(`invalid expression:\n${err.message.trimEnd()}`);
    throw err;
  }
  const config = await loadConfiguration(flags, false);
  const built = await buildExpressionPath(expression, config.snapshot, dataOptions(flags));
  printWarnings(undefined, built.warnings);
  const input = await OpenCapture.open(capture);
  const out = new TextSink();
  const verdict = built.path.newVerdict();
  let count = 0;
  try {
    const info = await input.forEachPacket((rec) => {
      built.path.process(rec, verdict);
      if (verdict.firewall.matchedCount === 0) return;
      count++;
      if (!flags.count) out.write(`${rec.frame}\n`);
    });
    if (flags.count) out.write(`${count}\n`);
    printWarnings(input.name, info.warnings);
  } finally {
    out.close();
  }
}
