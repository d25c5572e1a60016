// `edgesim inspect`, run: each packet through a path with lookups only, rendered as one JSON line:
// `frame` (and `file`, for several captures merged by time), `time` (written as replay writes it), every field the packet has, and `note` when
// decoding stopped early.
import type { PacketRecord } from '../../../capture/record.js';
import { recordFields } from '../../../fields/render.js';
import { buildLookupPath } from '../../../sim/build.js';
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
  const obj: Record<string, string | number | boolean> = recordFields(rec);
  if (rec.note !== '') obj.note = rec.note;
  const fields = JSON.stringify(obj);
  const file = files === null ? '' : `,"file":${JSON.stringify(files[rec.file])}`;
  return `{"frame":${rec.frame}${file},"time":${rec.timeText()}${fields === '{}' ? '}' : `,${fields.slice(1)}`}\n`;
}

/** thrown through the loop's signal once --limit packets are out */
const LIMIT_REACHED = new Error('limit reached');

export async function run(captures: string[], flags: InspectFlags): Promise<void> {
  const limit = flags.limit ?? Infinity;
  if (limit === 0) return;
  const built = await buildLookupPath(flags.lookups, dataOptions(flags));
  distinctCaptures(captures);
  const input = await OpenCapture.open(captures);
  const files = input.fileNames;
  const out = new TextSink();
  const stop = new AbortController();
  const verdict = built.path.newVerdict();
  let printed = 0;
  try {
    const info = await input.forEachPacket(
      (rec) => {
        if (printed >= limit) return;
        built.path.process(rec, verdict);
        out.write(packetLine(rec, files));
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
