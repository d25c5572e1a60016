// The ICMP and ICMPv6 header (capture/decode/transport.ts decodes both): type and code, its first
// two bytes. A suite's default type is its family's echo request (8, or 128 for ICMPv6), which the
// suites' packet spec chooses.
import { BYTE, field, fieldList, layer, raw } from './define.js';

export const ICMP_FIELDS = fieldList(
  field(
    { name: 'icmp.type', kind: 'int', max: BYTE, local: 'itype', dim: 'icmpType', part: 'icmp', unit: 'ICMP type', meaning: 'Type of an ICMP or ICMPv6 message (8 echo request IPv4, 128 echo request IPv6). Absent for other packets.' },
    { at: { offset: 0, bytes: 1 }, record: 'icmpType', usual: [8] },
  ),
  field(
    { name: 'icmp.code', kind: 'int', max: BYTE, local: 'icode', dim: 'icmpCode', part: 'icmp', unit: 'ICMP code', meaning: 'Code of an ICMP or ICMPv6 message. Absent for other packets.' },
    { at: { offset: 1, bytes: 1 }, record: 'icmpCode', default: 0, usual: [0] },
  ),
);

export const ICMP_LAYER = layer({
  name: 'icmp',
  fields: ICMP_FIELDS,
  bytes: raw('icmp', 'The ICMP or ICMPv6 header and payload', 'ip.proto in {"icmp" "ipv6-icmp"}'),
});
