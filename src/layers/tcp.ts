// The TCP header (capture/decode/transport.ts decodes it): the ports, the flags byte at offset 13
// and each of its bits as a boolean.
import { BYTE, field, fieldList, layer, named, port, raw } from './define.js';

const flag = <N extends string>(name: N, bit: number, what: string) =>
  field({
    name: named<`tcp.flags.${N}`>(`tcp.flags.${name}`),
    kind: 'flag',
    bit,
    part: 'tcp',
    unit: 'flag',
    meaning: `The ${what} bit (0x${bit.toString(16).padStart(2, '0')}) of the TCP flags. Absent when the packet is not TCP.`,
  });

export const TCP_FIELDS = fieldList(
  port('tcp', 'src', 49152, [40000]),
  port('tcp', 'dst', 80, [443, 80]),
  field(
    {
      name: 'tcp.flags',
      kind: 'int',
      max: BYTE,
      local: 'flags',
      dim: 'flags',
      part: 'tcp',
      unit: 'bit field',
      meaning: 'The TCP flags byte (header byte 13): FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20, ECE 0x40, CWR 0x80; the AE (NS) bit is not included. Absent when the packet is not TCP.',
    },
    { at: { offset: 13, bytes: 1 }, record: 'tcpFlags', default: 0x02, usual: [0x02, 0x10] },
  ),
  flag('ack', 0x10, 'ACK'),
  flag('cwr', 0x80, 'CWR'),
  flag('ecn', 0x40, 'ECE (ECN-Echo)'),
  flag('fin', 0x01, 'FIN'),
  flag('push', 0x08, 'PSH'),
  flag('reset', 0x04, 'RST'),
  flag('syn', 0x02, 'SYN'),
  flag('urg', 0x20, 'URG'),
);

export const TCP_LAYER = layer({ name: 'tcp', fields: TCP_FIELDS, bytes: raw('tcp', 'The TCP header and payload') });
