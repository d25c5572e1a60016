// The decoder's reading of the header fields at fixed places, written from the protocol layers
// (src/layers/): for each header, one function that reads every field its layer places there into
// the record (`rec.ttl = d[off + 8];`, or `rec.layerValues[i] = …` for a field without a property of
// its own). Generated once, when first imported, as straight-line code, so reading a field costs what
// a hand-written read costs. The callers check that the header is there (its length, its version)
// before they call, and set its presence bit.
import { headerOf, layerFields, layerValueIndex, slotOf, slotSource, type Header } from '../../layers/index.js';
import type { PacketRecord } from '../record.js';

export type HeaderReader = (rec: PacketRecord, d: Uint8Array, off: number) => void;

function reader(headers: readonly Header[], family: 4 | 6): HeaderReader {
  const lines = layerFields().flatMap((f) => {
    const slot = slotOf(f, family);
    if (slot === undefined || !headers.includes(headerOf(f)!)) return [];
    const target = f.record !== undefined ? `rec.${f.record}` : `rec.layerValues[${layerValueIndex(f)}]`;
    return [`${target} = ${slotSource(slot, 'd', 'off')};`];
  });
  return new Function('rec', 'd', 'off', lines.join('\n')) as HeaderReader;
}

/** The readers of each header's fields: the IP header's of each family (with the IPv4 header's own), IPv4 options, each transport. */
export const READ_FIELDS = {
  ipv4: reader(['ip', 'ipv4'], 4),
  ipv6: reader(['ip'], 6),
  ipv4Options: reader(['ipv4-options'], 4),
  tcp: reader(['tcp'], 4),
  udp: reader(['udp'], 4),
  icmp: reader(['icmp'], 4),
};
