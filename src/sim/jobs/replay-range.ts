// What a thread of a parallel replay does with its range (range-replay.ts): it builds the same
// packet path from the same snapshot and options, finds where the first record at or after its
// range's start lies, reads the records that start in its range from the file itself, decides each
// exactly as a one-thread replay does (PacketDecider), counts them into a summary of their own (a
// part), and returns the part, the rule counters, and where its records began and ended (which
// range-replay.ts checks). range-worker.ts runs it on a worker thread.
import { guessRecordStart } from '../../capture/pcap-resync.js';
import { readCapture } from '../../capture/reader.js';
import { buildPacketPath } from '../build.js';
import { countingVisit } from '../count-packets.js';
import { PacketDecider } from '../packet-decider.js';
import { ReplaySummary } from '../summary.js';
import type { RangeOutcome, RangeTask } from './range-task.js';

export async function replayRange(task: RangeTask): Promise<RangeOutcome> {
  const built = await buildPacketPath(task.setup.snapshot, task.setup.pathOptions);
  const from = await guessRecordStart(task.path, task.from, task.header, task.start[0]);
  if (from === null) return { kind: 'no-start' };
  const summary = new ReplaySummary(null, { start: task.start, addresses: task.addresses });
  const decider = PacketDecider.of(built, task.fastPath);
  const progress = new Float64Array(task.progress);
  const info = await readCapture(task.path, countingVisit(decider, summary), {
    decodeFrame: decider.decodeFrame,
    range: { from, to: task.to },
    blocking: true,
    onProgress: (bytesRead) => {
      progress[task.slot] = Math.min(Math.max(0, bytesRead - task.from), task.to - task.from);
    },
  });
  return { kind: 'done', from, info, parts: summary.parts(), hits: built.firewall.hits, decided: built.firewall.decided };
}
