// Traces of a capture's frames: the capture is replayed from its start in a run of its own (so
// connection tracking and rates are what they were when each frame arrived), and the frames asked for
// are traced on the way; the replay stops after the last frame asked for.
import { readFrames } from '../capture/reader.js';
import { UserError } from '../errors.js';
import type { CompiledPath } from '../sim/compiled-path.js';
import { decideFrame } from '../sim/decide-frame.js';
import { Run } from '../sim/run.js';
import { tracePacket, type PacketTrace } from './trace.js';
import { counted } from '../numbers.js';

const DONE = Symbol('traced');

/** Replays `capture` on `path`, tracing each frame for which `want` holds, up to frame `last` (Infinity: all). */
export async function traceFrames(path: CompiledPath, capture: string, want: (frame: number) => boolean, last: number, onTrace: (t: PacketTrace) => void): Promise<number> {
  const run = new Run(path, { record: true });
  const stop = new AbortController();
  let frames = 0;
  try {
    await readFrames(
      capture,
      (frame) => {
        if (stop.signal.aborted) return;
        frames = frame.number;
        const verdict = decideFrame(frame, path, run);
        if (want(frame.number)) onTrace(tracePacket(verdict, path.firewall, run.protection));
        if (frame.number >= last) stop.abort(DONE);
      },
      { signal: stop.signal },
    );
  } catch (err) {
    if (err !== DONE) throw err;
  }
  return frames;
}

/** The trace of frame `frame` of `capture`, replayed on `path`. */
export async function traceFrame(path: CompiledPath, capture: string, frame: number): Promise<PacketTrace> {
  let trace: PacketTrace | undefined;
  const frames = await traceFrames(path, capture, (f) => f === frame, frame, (t) => (trace = t));
  if (trace === undefined) throw new UserError(`has ${counted(frames, 'frame')}, no frame ${frame}`, { source: capture });
  return trace;
}
