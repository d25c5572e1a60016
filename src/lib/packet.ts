// A packet given to the library in the suites' form ({ 'ip.src': '198.51.100.7', 'tcp.dstport': 22 }),
// checked by the suites' own rules: an error is a SuiteError naming the field.
import { parsePacket, type PacketSpec, type PacketValues } from '../suite/packet-spec.js';
import { parseSuiteText, SuiteError } from '../suite/source.js';
import { packetValues } from './arguments.js';

/**
 * Field names as the Rules language writes them (and tcp.seq, tcp.ack, tcp.window, time, payload),
 * each with the type of its value as a suite's `packet:` gives it: `{ 'tcp.dstport': 22 }`; a name
 * that is not a field, or a value of another type, is a compile error. Derived from the field
 * registry (src/field-registry.ts), so it names every field there and nothing else.
 */
export type Packet = PacketValues;

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
