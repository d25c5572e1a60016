// Distinct connection keys for the connection-table tests: key k is one connection (addresses and
// ports), IPv6 for one k in five, IPv4 otherwise. No IPv6 word is zero, so a word a table fails to
// store or compare shows.
import type { PacketRecord } from '../../../src/capture/record.js';

/** Writes connection `k`'s key into `rec` (reset first) and returns it. */
export function connectionKey(rec: PacketRecord, k: number): PacketRecord {
  rec.reset();
  if (k % 5 === 2) {
    rec.ipVersion = 6;
    rec.src6.set([0x20010db8, 0x10000 + k, 0x20000 + (k >>> 4), 0x30000 + k]);
    rec.dst6.set([0x20010db8, 0xffff, 0xfffe, 1 + (k & 1)]);
  } else {
    rec.ipVersion = 4;
    rec.src4 = (0xc6336400 + (k >> 3)) >>> 0;
    rec.dst4 = 0xcb007100 + (k & 3);
  }
  rec.srcPort = 40000 + (k & 7);
  rec.dstPort = 443;
  return rec;
}
