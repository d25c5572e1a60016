// Traces of a capture's frames: the capture is replayed from its start (so connection tracking and
// rates are what they were when each frame arrived), and the frames asked for are traced on the way;
// the replay stops after the last frame asked for.
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { buildPacketPath, type PathOptions } from '../sim/build.js';
import { OpenCapture } from '../sim/packet-loop.js';
import { tracePacket, type PacketTrace } from './trace.js';
import { counted } from '../numbers.js';

const DONE = Symbol('traced');

/**
 * Replays `capture` (several: merged by time), tracing each frame for which `want` holds, up to frame
 * `last` of file `file` (Infinity: all; `file`: its place in the list of captures).
 */
export async function traceFrames(snapshot: Snapshot, options: PathOptions, capture: string | readonly string[], want: (frame: number, file: number) => boolean, last: number, onTrace: (t: PacketTrace) => void, file = 0): Promise<number> {
  const built = await buildPacketPath(snapshot, options);
  const verdict = built.path.newVerdict();
  const stop = new AbortController();
  let frames = 0;
  try {
    await (await OpenCapture.open(capture)).forEachPacket(
      (rec) => {
        if (stop.signal.aborted) return;
        built.path.process(rec, verdict);
        if (want(rec.frame, rec.file)) onTrace(tracePacket(rec, verdict, built.firewall, built.atp.active ? built.atp : null));
        if (rec.file !== file) return;
        frames = rec.frame;
        if (rec.frame >= last) stop.abort(DONE);
      },
      { signal: stop.signal },
    );
  } catch (err) {
    if (err !== DONE) throw err;
  }
  return frames;
}

/** The trace of frame `frame` of `capture` (of its file `file`, when several captures are merged by time). */
export async function traceFrame(snapshot: Snapshot, options: PathOptions, capture: string | readonly string[], frame: number, file = 0): Promise<PacketTrace> {
  let trace: PacketTrace | undefined;
  const frames = await traceFrames(snapshot, options, capture, (f, i) => f === frame && i === file, frame, (t) => (trace = t), file);
  const source = typeof capture === 'string' ? capture : capture[file]!;
  if (trace === undefined) throw new UserError(`has ${counted(frames, 'frame')}, no frame ${frame}`, { source });
  return trace;
}
