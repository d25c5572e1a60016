// `edgesim inspect CAPTURE`: what the decoder made of each packet, as NDJSON, so a rule author can
// see which Rules-language fields a packet has and with which values before writing an expression.
// One object per packet: `frame`, `time` (seconds since the epoch), every field the packet has by
// its Rules-language name (values as recordFields renders them), and `note` when decoding stopped
// early. Lookups that need data (countries, ASNs, data centers) are not made: inspect shows what
// the capture itself holds.
import { InvalidArgumentError, type Command } from 'commander';
import { recordFields } from '../../capture/fields.js';
import { CaptureError, readCapture } from '../../capture/reader.js';
import type { PacketRecord } from '../../capture/record.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import { CliError } from '../errors.js';

interface InspectFlags {
  limit?: number;
}

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of packets');
  return Number(value);
}

function packetLine(rec: PacketRecord): string {
  const obj: Record<string, string | number | boolean> = { frame: rec.frame, time: rec.time(), ...recordFields(rec) };
  if (rec.note !== '') obj.note = rec.note;
  return `${JSON.stringify(obj)}\n`;
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
    const info = await readCapture(capture, (rec) => {
      if (printed >= limit) return;
      out.write(packetLine(rec));
      if (++printed === limit) stop.abort(LIMIT_REACHED);
    }, { signal: stop.signal });
    for (const w of info.warnings) process.stderr.write(`edgesim: warning: ${capture}: ${w}\n`);
  } catch (err) {
    if (err === LIMIT_REACHED) return;
    if (err instanceof CaptureError) throw new CliError(err.message);
    throw err;
  } finally {
    out.close();
  }
}

export function register(program: Command): void {
  program
    .command('inspect')
    .description('print each packet\'s decoded Rules-language fields as NDJSON (one object a line)')
    .argument('<capture>', 'the capture file (pcap or pcapng, optionally gzipped)')
    .option('-n, --limit <n>', 'stop after this many packets', parseLimit)
    .addHelpText('after', `
Each line: {"frame":1,"time":1700000000.5,"ip.src":"192.0.2.1",...,"tcp.flags.syn":true,...}
Absent fields are left out; raw bytes (ip, tcp, udp, icmp) are hex pairs joined by ':'; "note" says
why decoding stopped early (e.g. "truncated TCP header", "unsupported link type 105").

Example:
  edgesim inspect examples/demo.pcap --limit 5 | jq -c '{frame, "ip.src", "tcp.dstport"}'`)
    .action((capture: string, flags: InspectFlags) => inspect(capture, flags));
}
