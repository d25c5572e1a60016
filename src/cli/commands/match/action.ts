// `edgesim match`, run: the expression becomes a one-rule path; the frames it matches are printed,
// or with --count how many there are. A count that may use several threads (--jobs) is a replay of
// the one-rule path, whose rule's hits are the count, so a large capture is counted in ranges as
// `replay --jobs` replays it; on one thread, the frames are counted as they are matched.
import { ConfigItemError, UserError } from '../../../errors.js';
import type { Frame } from '../../../capture/frame.js';
import type { ReadInfo } from '../../../capture/merge.js';
import { buildExpressionPath } from '../../../sim/build.js';
import type { CompiledPath } from '../../../sim/compiled-path.js';
import { decideFrame } from '../../../sim/decide-frame.js';
import { threadsWanted, type Jobs } from '../../../sim/jobs/threads.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { replay } from '../../../sim/replay.js';
import { Run } from '../../../sim/run.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings } from '../../output.js';
import { distinctCaptures } from '../../paths.js';

export interface MatchFlags extends ConfigFlags, DataFlags {
  count?: boolean;
  jobs: Jobs;
}

export async function run(captures: string[], expression: string, flags: MatchFlags): Promise<void> {
  const config = await loadConfiguration(flags, { required: false });
  const path = await buildExpressionPath(expression, config.snapshot, dataOptions(flags)).catch((err: unknown) => {
    // the expression is the path's one rule: its compile error is the expression's
    if (err instanceof ConfigItemError) throw new UserError(`invalid expression:\n${err.problem}`);
    throw err;
  });
  printWarnings(undefined, path.warnings);
  distinctCaptures(captures);
  const input = await OpenCapture.open(captures);
  const out = new TextSink();
  try {
    if (flags.count && threadsWanted(flags.jobs, input) > 1) {
      const { report, warnings } = await replay(input, path, { useLabels: false, jobs: flags.jobs });
      out.write(`${report.rules[0]!.hits}\n`);
      // the path's own warnings were printed before the read
      printWarnings(undefined, warnings.slice(path.warnings.length));
      printWarnings(input.warningSource, report.capture.warnings);
      return;
    }
    if (!flags.count && flags.jobs !== 'auto' && flags.jobs > 1) {
      printWarnings(undefined, [`--jobs ${flags.jobs}: the matched frames are printed in capture order, so it ran on one thread`]);
    }
    let count = 0;
    // several captures: each frame after its file, as grep names a line of one of several files
    const files = input.fileNames;
    const info = await eachMatch(input, path, (frame) => {
      count++;
      if (!flags.count) out.write(files === null ? `${frame.number}\n` : `${files[frame.file]}:${frame.number}\n`);
    });
    if (flags.count) out.write(`${count}\n`);
    printWarnings(input.warningSource, info.warnings);
  } finally {
    out.close();
  }
}

/** Reads the capture on this thread, calling `matched` with each matched frame. */
function eachMatch(input: OpenCapture, path: CompiledPath, matched: (frame: Frame) => void): Promise<ReadInfo> {
  const run = new Run(path);
  return input.forEachFrame((frame) => {
    if (decideFrame(frame, path, run).firewall.matchedCount !== 0) matched(frame);
  });
}
