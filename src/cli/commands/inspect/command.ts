// `edgesim inspect CAPTURE`: what the decoder made of each packet, as NDJSON, so a rule author can
// see which Rules-language fields a packet has and with which values before writing an expression.
import type { Command } from 'commander';
import { addDataOptions, wholeNumberOf, readOption } from '../../options.js';
import type { InspectFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('inspect')
    .description("print each packet's decoded Rules-language fields as NDJSON (one object a line)")
    .argument('<capture...>', 'the capture file (pcap or pcapng, optionally gzipped; "-" reads standard input), or several, merged by time (each line then names its "file")')
    .addOption(readOption())
    .option('-n, --limit <n>', 'stop after this many packets', wholeNumberOf('packets'))
    .option('--no-lookups', 'no GeoIP / data-center lookups: only what the capture itself holds')
    .addHelpText(
      'after',
      `
Each line: {"frame":1,"time":1700000000.5,"ip.src":"192.0.2.1",...,"tcp.flags.syn":true,...}
Absent fields are left out; raw bytes (ip, tcp, udp, icmp) are hex pairs joined by ':'; "note" says
why decoding stopped early (e.g. "truncated TCP header", "unsupported link type 105"). Fields that
need data are looked up as a replay would (countries, the ingress data center and region; ASNs with
--asn), so you see the values rules will see.

Example:
  edgesim inspect examples/demo.pcap --limit 5 | jq -c '{frame, "ip.src", "tcp.dstport"}'`,
    );
  addDataOptions(cmd);
  cmd.action(async (captures: string[], flags: InspectFlags) => (await import('./action.js')).run(captures, flags));
}
