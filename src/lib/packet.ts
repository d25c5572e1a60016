// A packet given to the library in the suites' form ({ 'ip.src': '198.51.100.7', 'tcp.dstport': 22 }),
// checked by the suites' own rules: an error is a SuiteError naming the field.
import { parsePacket, type PacketSpec } from '../suite/packet-spec.js';
import { parseSuiteText, SuiteError } from '../suite/source.js';
import { packetValues } from './arguments.js';

/** Field names as the Rules language writes them (and tcp.seq, tcp.ack, tcp.window, sip, time); values as a suite's `packet:` gives them. */
export type Packet = Readonly<Record<string, string | number | boolean>>;

/** The name errors give a packet: `packet: tcp.dstport: 70000 is out of range (0 to 65535)`. */
const NAME = 'packet';

export function packetSpec(packet: Packet): PacketSpec {
  try {
    packetValues(packet);
    return parsePacket(parseSuiteText(NAME, JSON.stringify(packet) ?? 'null'));
  } catch (err) {
    if (err instanceof SuiteError) err.locate(NAME);
    throw err;
  }
}
