// `edgesim inspect`, run: each frame decided on a path with lookups only (decoded, in a run that
// reads every field), rendered as one JSON line: `frame` (and `file`, for several captures merged by
// time), `time` (written as replay writes it), every field the packet has, and `note` when decoding
// stopped early.
import type { PacketRecord } from '../../../capture/record.js';
import { inspectFields } from '../../../fields/render.js';
import { buildLookupPath } from '../../../sim/build.js';
import { decideFrame } from '../../../sim/decide-frame.js';
import { Run } from '../../../sim/run.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { dataOptions } from '../../configuration.js';
import type { DataFlags } from '../../options.js';
import { printWarnings } from '../../output.js';
import { distinctCaptures } from '../../paths.js';

export interface InspectFlags extends DataFlags {
  limit?: number;
  lookups: boolean;
}

/** `files`: the merged captures' names (OpenCapture.fileNames), each line then naming its file after its frame, as replay's do */
function packetLine(rec: PacketRecord, files: readonly string[] | null): string {
  const fields = JSON.stringify(inspectFields(rec));
  const file = files === null ? '' : `,"file":${JSON.stringify(files[rec.file])}`;
  return `{"frame":${rec.frame}${file},"time":${rec.timeText()}${fields === '{}' ? '}' : `,${fields.slice(1)}`}\n`;
}

/** thrown through the loop's signal once --limit packets are out */
const LIMIT_REACHED = new Error('limit reached');

export async function run(captures: string[], flags: InspectFlags): Promise<void> {
  const limit = flags.limit ?? Infinity;
  if (limit === 0) return;
  const path = await buildLookupPath(flags.lookups, dataOptions(flags));
  distinctCaptures(captures);
  const input = await OpenCapture.open(captures);
  const files = input.fileNames;
  const out = new TextSink();
  const stop = new AbortController();
  const run = new Run(path, { record: true });
  let printed = 0;
  try {
    const info = await input.forEachFrame(
      (frame) => {
        if (printed >= limit) return;
        out.write(packetLine(decideFrame(frame, path, run).record, files));
        if (++printed === limit) stop.abort(LIMIT_REACHED);
      },
      { signal: stop.signal },
    );
    printWarnings(input.warningSource, info.warnings);
  } catch (err) {
    if (err !== LIMIT_REACHED) throw err;
  } finally {
    out.close();
  }
}
