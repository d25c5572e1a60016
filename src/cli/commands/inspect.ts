// `edgesim inspect CAPTURE`: what the decoder made of each packet, as NDJSON, so a rule author can
// see which Rules-language fields a packet has and with which values before writing an expression.
// One object per packet: `frame`, `time` (seconds since the epoch), every field the packet has by
// its Rules-language name (values as recordFields renders them), and `note` when decoding stopped
// early. Fields that need data are looked up as a replay would (countries, the ingress data center
// and region; ASNs with --asn), so a rule author sees the values rules will see; --no-lookups shows
// only what the capture itself holds.
import { InvalidArgumentError, type Command } from 'commander';
import { recordFields } from '../../capture/fields.js';
import { CaptureError, readCapture } from '../../capture/reader.js';
import type { PacketRecord } from '../../capture/record.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import { CliError } from '../errors.js';
import { addDataOptions, type DataFlags } from '../config-options.js';

interface InspectFlags extends DataFlags {
  limit?: number;
  lookups: boolean;
}

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of packets');
  return Number(value);
}

function packetLine(rec: PacketRecord): string {
  const obj: Record<string, string | number | boolean> = recordFields(rec);
  if (rec.note !== '') obj.note = rec.note;
  const fields = JSON.stringify(obj);
  // the time is written as replay writes it: every nanosecond digit, no float rounding
  return `{"frame":${rec.frame},"time":${rec.timeText()}${fields === '{}' ? '}' : `,${fields.slice(1)}`}\n`;
}

/** thrown through readCapture's signal once --limit packets are out */
const LIMIT_REACHED = new Error('limit reached');

async function inspect(capture: string, flags: InspectFlags): Promise<void> {
  const limit = flags.limit ?? Infinity;
  const out = new TextSink();
  const stop = new AbortController();
  let printed = 0;
  try {
    if (limit === 0) return;
    const { enrichmentFor, LOOKUP_FIELDS } = await import('../../sim/build.js');
    const { dataOptions, printWarnings } = await import('../actions/configuration.js');
    // every looked-up field (ASNs only with --asn: enrichmentFor leaves them out without a database)
    const enrichment = flags.lookups ? await enrichmentFor(LOOKUP_FIELDS, false, dataOptions(flags), []) : undefined;
    const info = await readCapture(capture, (rec) => {
      if (printed >= limit) return;
      if (enrichment !== undefined) enrichment.enrich(rec);
      out.write(packetLine(rec));
      if (++printed === limit) stop.abort(LIMIT_REACHED);
    }, { signal: stop.signal });
    printWarnings(capture, info.warnings);
  } catch (err) {
    if (err === LIMIT_REACHED) return;
    if (err instanceof CaptureError) throw new CliError(err.message);
    throw err;
  } finally {
    out.close();
  }
}

export function register(program: Command): void {
  const cmd = program
    .command('inspect')
    .description('print each packet\'s decoded Rules-language fields as NDJSON (one object a line)')
    .argument('<capture>', 'the capture file (pcap or pcapng, optionally gzipped)')
    .option('-n, --limit <n>', 'stop after this many packets', parseLimit)
    .option('--no-lookups', 'no GeoIP / data-center lookups: only what the capture itself holds')
    .addHelpText('after', `
Each line: {"frame":1,"time":1700000000.5,"ip.src":"192.0.2.1",...,"tcp.flags.syn":true,...}
Absent fields are left out; raw bytes (ip, tcp, udp, icmp) are hex pairs joined by ':'; "note" says
why decoding stopped early (e.g. "truncated TCP header", "unsupported link type 105").

Example:
  edgesim inspect examples/demo.pcap --limit 5 | jq -c '{frame, "ip.src", "tcp.dstport"}'`)
    .action((capture: string, flags: InspectFlags) => inspect(capture, flags));
  addDataOptions(cmd);
}
