// Witness packets: one concrete packet of a class, written as test suites write `packet:` — a plain
// object of Rules-language field name → value (addresses, protocol, countries and data-center
// names as text, numbers, booleans), holding exactly the fields the packet has. Values are chosen
// to look like ordinary traffic when the class allows it (TTL 64, a SYN, documentation addresses),
// else the smallest value of the class.
//
// witnessRecord() turns such an object back into the PacketRecord the firewall evaluates, which is
// how the property tests replay witnesses through the real engine.
import { HEADER_PRESENCE, Has, PacketRecord } from '../capture/record.js';
import { headerOf, layerValueIndex, placedFields, type LayerField } from '../layers/index.js';
import { icmpBodyLength, protocolNumber, protocolText } from '../capture/protocols.js';
import { COLO_NAMES, REGIONS, findColo } from '../data/colos.js';
import { formatIPv4, parseIPv4 } from '../net/ipv4.js';
import { formatIPv6, parseIPv6 } from '../net/ipv6.js';
import { type Intervals, contains, first } from './intervals.js';
import type { NameTables } from './names.js';
import { ABSENT, type Box, Dim, dimIndex, L4, V6_BASE } from './space.js';

export type Witness = Record<string, string | number | boolean>;

/** Chooses one value of a (non-empty) set; `preferred` are values that look like ordinary traffic. */
export type Chooser = (set: Intervals, preferred: readonly bigint[]) => bigint;

function pick(set: Intervals, preferred: readonly bigint[]): bigint {
  for (const p of preferred) if (contains(set, p)) return p;
  return first(set);
}

const v4 = (text: string): bigint => BigInt(parseIPv4(text) >>> 0);
const v6 = (text: string): bigint => V6_BASE + parseIPv6(text)!.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n);

/** An address of the shared axis (IPv4 below V6_BASE, IPv6 above) as text. */
export function addressText(v: bigint): string {
  if (v < V6_BASE) return formatIPv4(Number(v));
  const x = v - V6_BASE;
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = Number((x >> BigInt(96 - 32 * i)) & 0xffffffffn);
  return formatIPv6(words);
}

/** IPv4 header lengths with options, in words */
const LONGER_HEADERS = [6n, 7n, 8n, 9n, 10n, 11n, 12n, 13n, 14n, 15n];

const REGION_INDEXES = REGIONS.map((_, i) => BigInt(i));
const COLOS_IN_REGION = new Map<bigint, bigint[]>(REGIONS.map((r, i) => [BigInt(i), COLO_NAMES.flatMap((n, k) => (findColo(n)?.region === r ? [BigInt(k)] : []))]));

/** bytes a transport header takes, by L4 */
const TRANSPORT_BYTES = [20, 8, 8, 4];
/** room for a SIP request's first line */
const SIP_BYTES = 64;

/** The least ip.len that holds a packet's headers and payload. */
function leastLength(v6: boolean, hdrLen: number, l4: bigint, icmpType: number, sip: boolean): number {
  const icmp = l4 === L4.icmp ? icmpBodyLength(v6 ? 6 : 4, icmpType) : 0;
  return (v6 ? 40 : hdrLen * 4) + TRANSPORT_BYTES[Number(l4)]! + icmp + (sip ? SIP_BYTES : 0);
}

/** ip.len values to prefer: ordinary sizes (60 first) that hold the packet's headers and payload, then the least that does. */
function lengthsFor(v6: boolean, hdrLen: number, l4: bigint, icmpType: number, sip: boolean): bigint[] {
  const least = leastLength(v6, hdrLen, l4, icmpType, sip);
  return [...[60, 128, 576, 1500].filter((n) => n >= least), least].map(BigInt);
}

/**
 * Whether a witness's ip.len holds its headers and payload, as a packet a suite builds must: a
 * class may hold only shorter lengths for one transport (`ip.len <= 28` of TCP, whose headers take
 * 40 bytes) and longer ones for another, so a caller that needs a buildable packet tries its boxes.
 */
export function holdsItsHeaders(w: Witness): boolean {
  const l4 = w['tcp.dstport'] !== undefined ? L4.tcp : w['udp.dstport'] !== undefined ? L4.udp : w['icmp.type'] !== undefined ? L4.icmp : L4.none;
  return Number(w['ip.len']) >= leastLength(String(w['ip.src']).includes(':'), Number(w['ip.hdr_len'] ?? 5), l4, Number(w['icmp.type'] ?? -1), w.sip === true);
}

/** the fields their layer places in a header (src/layers/), by name */
const PLACED = placedFields();

/** the space's dimension of a placed field, and the values its layer says ordinary traffic has */
function placedDim(f: LayerField): { d: number; usual: bigint[] } | undefined {
  const dim = 'dim' in f.entry ? f.entry.dim : undefined;
  const d = dim === undefined ? undefined : dimIndex(dim);
  return d === undefined ? undefined : { d, usual: (f.usual ?? []).map(BigInt) };
}

/** each transport's placed fields with a dimension, in the layer's order */
const TRANSPORT_FIELDS = new Map<bigint, Array<{ name: string; d: number; usual: bigint[] }>>(
  (['tcp', 'udp', 'icmp'] as const).map((t) => [
    L4[t],
    [...PLACED.values()].flatMap((f) => {
      const dim = headerOf(f) === t ? placedDim(f) : undefined;
      return dim === undefined ? [] : [{ name: f.entry.name, ...dim }];
    }),
  ]),
);

const SRC = [v4('192.0.2.1'), v6('2001:db8::1')];
const DST = [v4('198.51.100.1'), v6('2001:db8::2')];

/**
 * A packet of the box (`choose` picks each value: the default prefers ordinary-looking ones).
 * `arrived`: the packet arrived at a data center, as every packet a suite builds does: its
 * cf.colo.name and cf.colo.region are given, a pair that agrees, when the box allows one.
 */
export function witnessOf(box: Box, names: NameTables, choose: Chooser = pick, arrived = false): Witness {
  const w: Witness = {};
  const value = (d: number, preferred: readonly bigint[] = []): bigint => choose(box[d]!, preferred);
  const l4 = value(Dim.l4, [L4.tcp, L4.udp, L4.icmp]);
  const src = value(Dim.src, SRC);
  w['ip.src'] = addressText(src);
  w['ip.dst'] = addressText(value(Dim.dst, src < V6_BASE ? DST : DST.slice(1)));
  // ICMP is its family's: ICMPv6 over IPv6 (a suite builds no "icmp" over IPv6)
  w['ip.proto'] = protocolText(Number(value(Dim.proto, src < V6_BASE ? [6n, 17n, 1n, 58n, 47n] : [6n, 17n, 58n, 1n, 47n])));
  w['ip.ttl'] = Number(value(Dim.ttl, placedDim(PLACED.get('ip.ttl')!)!.usual));
  w['ip.len'] = 0; // set below, once the headers and payload it must hold are known
  const optional = (name: string, d: number, preferred: readonly bigint[], text?: (i: number) => string | undefined): void => {
    const v = value(d, preferred);
    if (v === ABSENT) return;
    w[name] = text === undefined ? Number(v) : text(Number(v))!;
  };
  // a packet has options exactly when its header is longer than 5 words: the first option's type is ip.opt.type
  const optType = value(Dim.optType, [ABSENT]);
  optional('ip.hdr_len', Dim.hdrLen, optType === ABSENT ? [5n, ...LONGER_HEADERS] : LONGER_HEADERS);
  if (optType !== ABSENT) w['ip.opt.type'] = Number(optType);
  optional('ip.src.country', Dim.srcCountry, [ABSENT], (i) => names.countryText(i));
  optional('ip.dst.country', Dim.dstCountry, [ABSENT], (i) => names.countryText(i));
  optional('ip.src.asnum', Dim.srcAsn, [ABSENT]);
  optional('ip.dst.asnum', Dim.dstAsn, [ABSENT]);
  const region = value(Dim.coloRegion, arrived ? REGION_INDEXES : [ABSENT]);
  optional('cf.colo.name', Dim.coloName, !arrived || region === ABSENT ? [ABSENT] : (COLOS_IN_REGION.get(region) ?? []), (i) => names.coloNameText(i));
  if (region !== ABSENT) w['cf.colo.region'] = names.coloRegionText(Number(region))!;
  // the transport's fields, as its layer places them (src/layers/)
  for (const { name, d, usual } of TRANSPORT_FIELDS.get(l4) ?? []) w[name] = Number(value(d, usual));
  w.sip = value(Dim.sip, [0n]) === 1n;
  w['ip.len'] = Number(value(Dim.len, lengthsFor(src >= V6_BASE, Number(w['ip.hdr_len'] ?? 5), l4, Number(w['icmp.type'] ?? -1), w.sip)));
  return w;
}

const encoder = new TextEncoder();

function num(w: Witness, name: string): number {
  return Number(w[name]);
}

/** The decoded packet a witness describes (fields it omits are absent). */
export function witnessRecord(w: Witness, rec = new PacketRecord()): PacketRecord {
  rec.reset();
  rec.present = Has.IP;
  const src = String(w['ip.src']);
  const dst = String(w['ip.dst']);
  rec.setAddresses(src, dst);
  rec.proto = protocolNumber(String(w['ip.proto'] ?? 'tcp')) ?? 0;
  rec.ipLen = num(w, 'ip.len');
  const has = (name: string): boolean => w[name] !== undefined;
  if (has('ip.src.country')) (rec.present |= Has.SRC_COUNTRY), (rec.srcCountry = encoder.encode(String(w['ip.src.country'])));
  if (has('ip.dst.country')) (rec.present |= Has.DST_COUNTRY), (rec.dstCountry = encoder.encode(String(w['ip.dst.country'])));
  if (has('ip.src.asnum')) (rec.present |= Has.SRC_ASN), (rec.srcAsn = num(w, 'ip.src.asnum'));
  if (has('ip.dst.asnum')) (rec.present |= Has.DST_ASN), (rec.dstAsn = num(w, 'ip.dst.asnum'));
  if (has('cf.colo.name')) (rec.present |= Has.COLO_NAME), (rec.coloName = encoder.encode(String(w['cf.colo.name'])));
  if (has('cf.colo.region')) (rec.present |= Has.COLO_REGION), (rec.coloRegion = encoder.encode(String(w['cf.colo.region'])));
  // the fields their layer places in a header: present with it, kept where the decoder keeps them
  for (const [name, f] of PLACED) {
    if (!has(name)) continue;
    rec.present |= HEADER_PRESENCE[headerOf(f)!];
    if (f.record !== undefined) rec[f.record] = num(w, name);
    else rec.layerValues[layerValueIndex(f)] = num(w, name);
  }
  rec.sip = w.sip === true;
  return rec;
}
