// A replay as an async iterator of NDJSON records. The replay runs as the CLI's does (sim/replay.ts,
// fast path included) and its lines are handed over in order; the capture is read no further ahead
// than the consumer (each read of its bytes waits until every record so far was taken), so memory
// stays flat however big the capture. Leaving the loop early ends the read and closes the capture.
import { Readable } from 'node:stream';
import type { BuiltPath } from '../sim/build.js';
import { ndjsonLine } from '../sim/outputs/packet-lines.js';
import { OpenCapture } from '../sim/packet-loop.js';
import { replay } from '../sim/replay.js';
import type { VerdictRecord } from './verdict-record.js';

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

export async function* replayRecords(built: BuiltPath, input: CaptureInput): AsyncGenerator<VerdictRecord, void, undefined> {
  let lines: string[] = [];
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
  const ready = (): Promise<void> | undefined => (lines.length === 0 || stop.signal.aborted ? undefined : new Promise<void>((resolve) => (drained = resolve)));
  const capture = (await openInput(input)).pacedBy(ready);
  let ended = false;
  let failure: { error: unknown } | null = null;
  const run = replay(capture, built, {
    useLabels: false,
    interrupt: stop.signal,
    sinks: (firewall) => {
      const line = ndjsonLine(firewall, [], capture.fileNames);
      return [
        {
          packet: (rec, v) => {
            lines.push(line(rec, v));
            wake();
          },
          close: async () => undefined,
        },
      ];
    },
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
      if (lines.length > 0) {
        const batch = lines;
        lines = [];
        for (const line of batch) yield JSON.parse(line) as VerdictRecord;
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
