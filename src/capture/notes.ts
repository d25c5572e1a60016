// Why a packet's decoding stopped early. PacketRecord.note holds one of these strings (or '' when
// the packet decoded fully), so setting a note on the hot path allocates nothing and consumers can
// compare notes by identity. A packet that simply is not IP (ARP, STP, LLDP, ...) gets no note: it
// decoded fully, there is just nothing for the Rules-language fields to hold. Likewise a packet
// cut by the capture's snap length gets no note as long as the headers the fields come from are
// complete, and a non-first fragment (which carries no transport header) gets none.

/** The constant notes a decoder sets on PacketRecord.note. */
export const Note = {
  TRUNCATED_LINK: 'truncated link-layer header',
  TRUNCATED_VLAN: 'truncated VLAN tag',
  TRUNCATED_IP: 'truncated IP header',
  BAD_IP_VERSION: 'bad IP version',
  TRUNCATED_IPV4: 'truncated IPv4 header',
  BAD_IPV4_HEADER_LENGTH: 'bad IPv4 header length',
  BAD_IPV4_TOTAL_LENGTH: 'bad IPv4 total length',
  TRUNCATED_IPV6: 'truncated IPv6 header',
  TRUNCATED_IPV6_EXTENSION: 'truncated IPv6 extension header',
  TRUNCATED_TCP: 'truncated TCP header',
  BAD_TCP_HEADER_LENGTH: 'bad TCP header length',
  TRUNCATED_UDP: 'truncated UDP header',
  TRUNCATED_ICMP: 'truncated ICMP header',
} as const;

export type NoteText = (typeof Note)[keyof typeof Note];

const unsupported = new Map<number, string>();

/** The note for a link type the decoder does not know, e.g. "unsupported link type 105" (one string per link type). */
export function unsupportedLinkType(linkType: number): string {
  let note = unsupported.get(linkType);
  if (note === undefined) {
    note = `unsupported link type ${linkType}`;
    unsupported.set(linkType, note);
  }
  return note;
}
