// What a thread of a parallel replay does with its range (range-replay.ts): it builds the same
// packet path from the same snapshot and options, finds where the first record at or after its
// range's start lies, reads the records that start in its range from the file itself, decides each
// exactly as a one-thread replay does (decideFrame, in a run of its own), counts them into a summary
// of their own (a part), and returns the part, the run's tally, and where its records began and
// ended (which range-replay.ts checks). range-worker.ts runs it on a worker thread.
import { guessRecordStart } from '../../capture/pcap-resync.js';
import { readFrames } from '../../capture/reader.js';
import { compilePath } from '../build.js';
import { decideFrame } from '../decide-frame.js';
import { Run } from '../run.js';
import { ReplaySummary } from '../summary.js';
import type { RangeOutcome, RangeTask } from './range-task.js';

export async function replayRange(task: RangeTask): Promise<RangeOutcome> {
  const path = await compilePath(task.setup.snapshot, task.setup.pathOptions);
  const from = await guessRecordStart(task.path, task.from, task.header, task.start[0]);
  if (from === null) return { kind: 'no-start' };
  const summary = new ReplaySummary(null, { start: task.start, addresses: task.addresses });
  const run = new Run(path, { record: !task.fastPath });
  const progress = new Float64Array(task.progress);
  const info = await readFrames(task.path, (frame) => summary.add(decideFrame(frame, path, run)), {
    range: { from, to: task.to },
    blocking: true,
    onProgress: (bytesRead) => {
      progress[task.slot] = Math.min(Math.max(0, bytesRead - task.from), task.to - task.from);
    },
  });
  return { kind: 'done', from, info, parts: summary.parts(), tally: run.tally.parts() };
}
