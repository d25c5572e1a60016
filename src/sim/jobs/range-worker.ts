// The worker thread of a parallel replay: replays the range it is given (replay-range.ts) and sends
// back the outcome, or why it failed.
import { parentPort, workerData } from 'node:worker_threads';
import { replayRange } from './replay-range.js';
import type { RangeOutcome, RangeTask } from './range-task.js';

const port = parentPort!;
replayRange(workerData as RangeTask).then(
  // the drops' addresses are moved to the replay's thread, not copied
  (outcome) => port.postMessage(outcome, outcome.kind === 'done' ? (outcome.parts.drops.addresses?.chunks.map((c) => c.buffer) ?? []) : []),
  (err: unknown) => port.postMessage({ kind: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies RangeOutcome),
);
