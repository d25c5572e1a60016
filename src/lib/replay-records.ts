// A replay as an async iterator of verdict records. The replay runs as the CLI's does (sim/replay.ts,
// compiled lane included) and each packet's verdict record (sim/verdict.ts, the one every output
// renders) is handed over in order, as plain data; the capture is read no further ahead
// than the consumer (each read of its bytes waits until every record so far was taken), so memory
// stays flat however big the capture. Leaving the loop early ends the read and closes the capture.
import { Readable } from 'node:stream';
import type { CompiledPath } from '../sim/compiled-path.js';
import { OpenCapture } from '../sim/packet-loop.js';
import { replay } from '../sim/replay.js';
import type { VerdictRecord } from '../sim/verdict.js';

/**
 * A capture file's path, several paths (replayed merged by time; each record then names its `file`),
 * its bytes, or its bytes as chunks (pcap or pcapng, either gzip-compressed).
 */
export type CaptureInput = string | readonly string[] | Uint8Array | AsyncIterable<Uint8Array>;

/** How messages name a capture given as bytes. */
const BYTES_NAME = 'capture bytes';

function openInput(input: CaptureInput): Promise<OpenCapture> {
  if (typeof input === 'string' || Array.isArray(input)) return OpenCapture.open(input as string | readonly string[]);
  return OpenCapture.fromStream(BYTES_NAME, Readable.from(input instanceof Uint8Array ? [input] : (input as AsyncIterable<Uint8Array>), { objectMode: false }));
}

/** Replays `input` on `path` in a run of its own (fresh protection state), yielding each packet's verdict record. */
export async function* replayRecords(path: CompiledPath, input: CaptureInput): AsyncGenerator<VerdictRecord, void, undefined> {
  let records: VerdictRecord[] = [];
  let arrived: (() => void) | null = null;
  let drained: (() => void) | null = null;
  const wake = (): void => {
    const a = arrived;
    arrived = null;
    a?.();
  };
  const release = (): void => {
    const d = drained;
    drained = null;
    d?.();
  };
  const stop = new AbortController();
  const ready = (): Promise<void> | undefined => (records.length === 0 || stop.signal.aborted ? undefined : new Promise<void>((resolve) => (drained = resolve)));
  const capture = (await openInput(input)).pacedBy(ready);
  let ended = false;
  let failure: { error: unknown } | null = null;
  const run = replay(capture, path, {
    useLabels: false,
    interrupt: stop.signal,
    sinks: () => [
      {
        packet: (v) => {
          records.push(v.toRecord(capture.fileNames));
          wake();
        },
        close: async () => undefined,
      },
    ],
  })
    .catch((error: unknown) => {
      failure = { error };
    })
    .finally(() => {
      ended = true;
      wake();
    });
  try {
    for (;;) {
      if (records.length > 0) {
        const batch = records;
        records = [];
        yield* batch;
        continue;
      }
      if (ended) break;
      release();
      await new Promise<void>((resolve) => (arrived = resolve));
    }
  } finally {
    if (!ended) stop.abort();
    release();
    await run;
  }
  if (failure !== null) throw (failure as { error: unknown }).error;
}
