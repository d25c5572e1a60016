// `edgesim match`, run: the expression becomes a one-rule path; the frames it matches are printed.
import { ConfigItemError, UserError } from '../../../errors.js';
import { buildExpressionPath } from '../../../sim/build.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { PacketDecider } from '../../../sim/packet-decider.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings } from '../../output.js';

export interface MatchFlags extends ConfigFlags, DataFlags {
  count?: boolean;
}

export async function run(capture: string, expression: string, flags: MatchFlags): Promise<void> {
  const config = await loadConfiguration(flags, false);
  const built = await buildExpressionPath(expression, config.snapshot, dataOptions(flags)).catch((err: unknown) => {
    // the expression is the path's one rule: its compile error is the expression's
    if (err instanceof ConfigItemError) throw new UserError(`invalid expression:\n${err.problem}`);
    throw err;
  });
  printWarnings(undefined, built.warnings);
  const input = await OpenCapture.open(capture);
  const out = new TextSink();
  const decider = PacketDecider.of(built);
  let count = 0;
  try {
    const info = await input.forEachPacket((rec) => {
      if (decider.decide(rec).firewall.matchedCount === 0) return;
      count++;
      if (!flags.count) out.write(`${rec.frame}\n`);
    }, { decodeFrame: decider.decodeFrame });
    if (flags.count) out.write(`${count}\n`);
    printWarnings(input.name, info.warnings);
  } finally {
    out.close();
  }
}
