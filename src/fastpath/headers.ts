// The start of the generated per-frame function: finding the IP header and reading the header values
// the rules use into locals, straight from the frame's bytes (as BPF does). It mirrors capture/decode/
// (link.ts, ip.ts, transport.ts), with their own tables, for the link types most captures have
// (PROGRAM_LINK_TYPES: a frame of another link type takes the decoder's lane, sim/lane.ts):
// following VLAN tags (802.1Q, QinQ) to the IP header and walking IPv6 extension headers (hop-by-hop,
// routing, fragment, destination options, AH) to the transport, as the decoder does; it returns
// FALLBACK for every truncation or malformation that gives a decode note. A frame whose EtherType is
// not IP decodes to no fields and no note in the decoder too, so it is decided here (it passes
// uninspected).
//
// Locals set for the rule code (absent groups leave theirs 0): fam (4 or 6), s4 d4 (IPv4 addresses,
// unsigned), sa..sd da..dd (IPv6 words, unsigned, read only when rules compare IPv6 addresses),
// SRC6 DST6 (the same words in scratch arrays, for IpSet.has6), proto, ipLen, hasOpt, tcp udp icmp
// (0/1 presence), l3 l3e l4 (offsets of the IP header, end of the IP packet as captured, transport
// header), sip (0/1); and the local of each field its layer places in a header (src/layers/: ttl,
// hdrLen, optType, sport dport flags, itype icode), read where the layer says, in the branch of its header.
//
// The IP header's offset is also left in the run's result (`out.l3`), so that the caller can read a
// decided packet's addresses without decoding it (sim/decide-frame.ts).

import { EXT_AH, EXT_FRAGMENT } from '../capture/decode/ip.js';
import { IPV4, IPV6, VLAN } from '../capture/decode/link.js';
import { headerOf, layerFields, slotOf, slotSource, type Header } from '../layers/index.js';

/** the header fields read at a fixed place (src/layers/), with their locals */
const PLACED = layerFields().flatMap((f) => {
  const local = 'local' in f.entry ? f.entry.local : undefined;
  return f.at === undefined || local === undefined ? [] : [{ field: f, local, header: headerOf(f)! }];
});

/** Reads of the placed fields of `headers` of IP version `family` into their locals, from `base`: `ttl = d[l3 + 8];` */
function placedReads(headers: readonly Header[], family: 4 | 6, base: string): string {
  return PLACED.flatMap(({ field, local, header }) => {
    const slot = slotOf(field, family);
    return slot === undefined || !headers.includes(header) ? [] : [`${local} = ${slotSource(slot, 'd', base)};`];
  }).join(' ');
}

/** the placed fields' locals, each once (the ports of TCP and UDP share theirs) */
const PLACED_LOCALS = [...new Set(PLACED.map((p) => p.local))];

/** What the generated function returns when the packet needs the decoder and evaluator. */
export const FALLBACK = -1;

/** The link types the prologue reads (Ethernet, Linux SLL and SLL2, the raw-IP types): a frame of any other takes the decoder's lane. */
export const PROGRAM_LINK_TYPES: readonly number[] = [1, 113, 276, 101, 12, 14, 228, 229];
/** What it returns for a frame without IP (no note): it passes uninspected. */
export const NOT_IP = 0;

/** Every local the prologue can provide, the frame function's own arguments (the frame) among them. */
export const HEADER_LOCALS: readonly string[] = [
  'fam', 's4', 'd4', 'sa', 'sb', 'sc', 'sd', 'da', 'db', 'dc', 'dd', 'SRC6', 'DST6', 'proto', 'ipLen',
  'hasOpt', 'tcp', 'udp', 'icmp', 'l3', 'l3e', 'l4', 'sip', 'd',
  'off', 'end', 'origLen', 'linkType', ...PLACED_LOCALS,
];

/**
 * The prologue's source for a function of (d, off, end, origLen, linkType, out), for a frame of one
 * of PROGRAM_LINK_TYPES. `uses` names the locals the rules read; reading IPv6 words and testing for
 * SIP are left out unless used. A frame it cannot read (the decoder would note it) returns FALLBACK.
 */
export function prologue(uses: ReadonlySet<string>): string {
  const v6src = uses.has('sa') || uses.has('SRC6');
  const v6dst = uses.has('da') || uses.has('DST6');
  const lines = [
    'let fam = 0, l3 = 0;',
    'if (linkType === 1 || linkType === 113 || linkType === 276) {',
    '  const hdr = linkType === 1 ? 14 : linkType === 113 ? 16 : 20;',
    `  if (end - off < hdr) return ${FALLBACK};`,
    '  const typeAt = linkType === 1 ? off + 12 : linkType === 113 ? off + 14 : off;',
    '  let kind = ETHERTYPE[(d[typeAt] << 8) | d[typeAt + 1]];',
    '  l3 = off + hdr;',
    // VLAN tags, of any depth, as link.ts follows them
    `  while (kind === ${VLAN}) {`,
    `    if (end - l3 < 4) return ${FALLBACK};`,
    '    kind = ETHERTYPE[(d[l3 + 2] << 8) | d[l3 + 3]];',
    '    l3 += 4;',
    '  }',
    `  if (kind === ${IPV4}) fam = 4;`,
    `  else if (kind === ${IPV6}) fam = 6;`,
    '  else return notIp(out);',
    '} else if (linkType === 101 || linkType === 12 || linkType === 14) {',
    `  if (end <= off) return ${FALLBACK};`,
    '  const v = d[off] >> 4;',
    `  if (v === 4) fam = 4; else if (v === 6) fam = 6; else return ${FALLBACK};`,
    '  l3 = off;',
    '} else if (linkType === 228) { fam = 4; l3 = off; }',
    'else { fam = 6; l3 = off; }',
    'out.l3 = l3;',
    `let s4 = 0, d4 = 0, proto = 0, ipLen = 0, hasOpt = 0, l3e = 0, l4 = 0, transport = 0, ${PLACED_LOCALS.map((l) => `${l} = 0`).join(', ')};`,
    'let sa = 0, sb = 0, sc = 0, sd = 0, da = 0, db = 0, dc = 0, dd = 0;',
    'if (fam === 4) {',
    `  if (end - l3 < 20) return ${FALLBACK};`,
    '  const vihl = d[l3];',
    `  if (vihl >> 4 !== 4) return ${FALLBACK};`,
    '  const ihl = vihl & 15;',
    `  if (ihl < 5) return ${FALLBACK};`,
    '  ipLen = (d[l3 + 2] << 8) | d[l3 + 3];',
    '  if (ipLen === 0) ipLen = off + origLen - l3;',
    '  const hb = ihl * 4;',
    `  if (ipLen < hb) return ${FALLBACK};`,
    '  l3e = end < l3 + ipLen ? end : l3 + ipLen;',
    `  if (l3e - l3 < hb) return ${FALLBACK};`,
    `  ${placedReads(['ip', 'ipv4'], 4, 'l3')}`,
    '  proto = d[l3 + 9];',
    '  s4 = ((d[l3 + 12] << 24) | (d[l3 + 13] << 16) | (d[l3 + 14] << 8) | d[l3 + 15]) >>> 0;',
    '  d4 = ((d[l3 + 16] << 24) | (d[l3 + 17] << 16) | (d[l3 + 18] << 8) | d[l3 + 19]) >>> 0;',
    `  if (ihl > 5) { hasOpt = 1; ${placedReads(['ipv4-options'], 4, 'l3')} }`,
    '  transport = (((d[l3 + 6] << 8) | d[l3 + 7]) & 0x1fff) === 0 ? 1 : 0;',
    '  l4 = l3 + hb;',
    '} else {',
    `  if (end > l3 && d[l3] >> 4 !== 6) return ${FALLBACK};`,
    `  if (end - l3 < 40) return ${FALLBACK};`,
    '  const pl = (d[l3 + 4] << 8) | d[l3 + 5];',
    '  proto = d[l3 + 6];',
    // zero: a jumbogram's length (its hop-by-hop Jumbo Payload option), else the frame's, as ip.ts says
    '  ipLen = pl !== 0 ? pl + 40 : jumboLength(d, l3, end) ?? off + origLen - l3;',
    `  ${placedReads(['ip'], 6, 'l3')}`,
    '  l3e = pl === 0 ? end : end < l3 + 40 + pl ? end : l3 + 40 + pl;',
    '  l4 = l3 + 40;',
    '  transport = 1;',
    // the extension headers, walked as ip.ts walks them: a non-first fragment has no transport header
    '  for (let ext = EXTENSION[proto]; ext !== 0; ext = EXTENSION[proto]) {',
    `    const len = l3e - l4 < 2 || ext === ${EXT_FRAGMENT} ? 8 : ext === ${EXT_AH} ? (d[l4 + 1] + 2) * 4 : (d[l4 + 1] + 1) * 8;`,
    `    if (l3e - l4 < len) return ${FALLBACK};`,
    `    if (ext === ${EXT_FRAGMENT} && (((d[l4 + 2] << 8) | d[l4 + 3]) & 0xfff8) !== 0) { proto = d[l4]; transport = 0; break; }`,
    '    proto = d[l4];',
    '    l4 += len;',
    '  }',
  ];
  if (v6src) {
    lines.push(
      '  sa = word(d, l3 + 8); sb = word(d, l3 + 12); sc = word(d, l3 + 16); sd = word(d, l3 + 20);',
      '  SRC6[0] = sa; SRC6[1] = sb; SRC6[2] = sc; SRC6[3] = sd;',
    );
  }
  if (v6dst) {
    lines.push(
      '  da = word(d, l3 + 24); db = word(d, l3 + 28); dc = word(d, l3 + 32); dd = word(d, l3 + 36);',
      '  DST6[0] = da; DST6[1] = db; DST6[2] = dc; DST6[3] = dd;',
    );
  }
  const sip = uses.has('sip');
  lines.push(
    '}',
    'let tcp = 0, udp = 0, icmp = 0, sip = 0;',
    'if (transport === 1) {',
    '  if (proto === 6) {',
    `    if (l3e - l4 < 20) return ${FALLBACK};`,
    '    const thl = (d[l4 + 12] >> 4) * 4;',
    `    if (thl < 20) return ${FALLBACK};`,
    `    tcp = 1; ${placedReads(['tcp'], 4, 'l4')}`,
    sip ? '    if (l4 + thl < l3e && looksLikeSip(d, l4 + thl, l3e)) sip = 1;' : '',
    '  } else if (proto === 17) {',
    `    if (l3e - l4 < 8) return ${FALLBACK};`,
    `    udp = 1; ${placedReads(['udp'], 4, 'l4')}`,
    sip ? '    if (l4 + 8 < l3e && looksLikeSip(d, l4 + 8, l3e)) sip = 1;' : '',
    '  } else if (proto === 1 || proto === 58) {',
    `    if (l3e - l4 < 4) return ${FALLBACK};`,
    `    icmp = 1; ${placedReads(['icmp'], 4, 'l4')}`,
    '  }',
    '}',
  );
  return lines.filter((l) => l !== '').join('\n');
}
