// Traces of a capture's frames: the capture is replayed from its start in a run of its own (so
// connection tracking and rates are what they were when each frame arrived), and the frames asked for
// are traced on the way; the replay stops after the last frame asked for.
import { UserError } from '../errors.js';
import type { CompiledPath } from '../sim/compiled-path.js';
import { decideFrame } from '../sim/decide-frame.js';
import { OpenCapture } from '../sim/packet-loop.js';
import { Run } from '../sim/run.js';
import { tracePacket, type PacketTrace } from './trace.js';
import { counted } from '../numbers.js';

const DONE = Symbol('traced');

/**
 * Replays `capture` (several: merged by time) on `path`, tracing each frame for which `want` holds,
 * up to frame `last` of file `file` (Infinity: all; `file`: its place in the list of captures).
 */
export async function traceFrames(path: CompiledPath, capture: string | readonly string[], want: (frame: number, file: number) => boolean, last: number, onTrace: (t: PacketTrace) => void, file = 0): Promise<number> {
  const run = new Run(path, { record: true });
  const stop = new AbortController();
  let frames = 0;
  try {
    await (await OpenCapture.open(capture)).forEachFrame(
      (frame) => {
        if (stop.signal.aborted) return;
        const verdict = decideFrame(frame, path, run);
        if (want(frame.number, frame.file)) onTrace(tracePacket(verdict, path.firewall, run.protection));
        if (frame.file !== file) return;
        frames = frame.number;
        if (frame.number >= last) stop.abort(DONE);
      },
      { signal: stop.signal },
    );
  } catch (err) {
    if (err !== DONE) throw err;
  }
  return frames;
}

/** The trace of frame `frame` of `capture` (of its file `file`, when several captures are merged by time), replayed on `path`. */
export async function traceFrame(path: CompiledPath, capture: string | readonly string[], frame: number, file = 0): Promise<PacketTrace> {
  let trace: PacketTrace | undefined;
  const frames = await traceFrames(path, capture, (f, i) => f === frame && i === file, frame, (t) => (trace = t), file);
  const source = typeof capture === 'string' ? capture : capture[file]!;
  if (trace === undefined) throw new UserError(`has ${counted(frames, 'frame')}, no frame ${frame}`, { source });
  return trace;
}
