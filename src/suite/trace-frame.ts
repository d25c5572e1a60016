// Traces of a capture's frames: the capture is replayed from its start (so connection tracking and
// rates are what they were when each frame arrived), and the frames asked for are traced on the way;
// the replay stops after the last frame asked for.
import { readCapture } from '../capture/reader.js';
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { buildPacketPath, type PathOptions } from '../sim/build.js';
import { tracePacket, type PacketTrace } from './trace.js';
import { counted } from '../numbers.js';

const DONE = Symbol('traced');

/** Replays `capture`, tracing each frame for which `want` holds, up to frame `last` (Infinity: all). */
export async function traceFrames(snapshot: Snapshot, options: PathOptions, capture: string, want: (frame: number) => boolean, last: number, onTrace: (t: PacketTrace) => void): Promise<number> {
  const built = await buildPacketPath(snapshot, options);
  const verdict = built.path.newVerdict();
  const stop = new AbortController();
  let frames = 0;
  try {
    await readCapture(
      capture,
      (rec) => {
        if (stop.signal.aborted) return;
        frames = rec.frame;
        built.path.process(rec, verdict);
        if (want(rec.frame)) onTrace(tracePacket(rec, verdict, built.firewall, built.atp.active ? built.atp : null));
        if (rec.frame >= last) stop.abort(DONE);
      },
      { signal: stop.signal },
    );
  } catch (err) {
    if (err !== DONE) throw err;
  }
  return frames;
}

/** The trace of frame `frame` of `capture`. */
export async function traceFrame(snapshot: Snapshot, options: PathOptions, capture: string, frame: number): Promise<PacketTrace> {
  let trace: PacketTrace | undefined;
  const frames = await traceFrames(snapshot, options, capture, (f) => f === frame, frame, (t) => (trace = t));
  if (trace === undefined) throw new UserError(`has ${counted(frames, 'frame')}, no frame ${frame}`, { source: capture });
  return trace;
}
