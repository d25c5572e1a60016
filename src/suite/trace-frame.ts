// The trace of frame N of a capture: the capture is replayed from its start (so connection tracking
// and rates are what they were when frame N arrived) and the replay stops right after frame N.
import { readCapture } from '../capture/reader.js';
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { buildPacketPath, type PathOptions } from '../sim/build.js';
import { tracePacket, type PacketTrace } from './trace.js';

const FOUND = Symbol('frame traced');

export async function traceFrame(snapshot: Snapshot, options: PathOptions, capture: string, frame: number): Promise<PacketTrace> {
  const built = await buildPacketPath(snapshot, options);
  const verdict = built.path.newVerdict();
  const stop = new AbortController();
  let trace: PacketTrace | undefined;
  let frames = 0;
  try {
    frames = (
      await readCapture(
        capture,
        (rec) => {
          if (trace !== undefined) return;
          built.path.process(rec, verdict);
          if (rec.frame === frame) {
            trace = tracePacket(rec, verdict, built.firewall, built.atp.active);
            stop.abort(FOUND);
          }
        },
        { signal: stop.signal },
      )
    ).packets;
  } catch (err) {
    if (err !== FOUND) throw err;
  }
  if (trace === undefined) throw new UserError(`has ${frames} frames, no frame ${frame}`, { source: capture });
  return trace;
}
