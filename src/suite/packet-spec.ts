// A `packet:` of a suite, written as the Rules language writes it (addresses and names as strings,
// integers as numbers, flags as booleans), checked and completed with the defaults of a typical
// packet. The defaults are part of the suite format (they are printed by `edgesim test --help`), so
// a case states only what matters to it:
//
//   ip.src 198.51.100.20 (2001:db8::20 when ip.dst is IPv6), ip.dst 203.0.113.10 (2001:db8:ffff::10
//   when ip.src is IPv6), ip.ttl 64, ip.proto from the transport fields given (tcp when none),
//   tcp.srcport 49152, tcp.dstport 80, tcp.flags SYN (when neither tcp.flags nor a flag boolean is
//   given; flag booleans set exactly the flags that are true), tcp.seq the next sequence number of
//   the same connection in a `packets:` sequence (1000 for its first packet), tcp.ack 0, tcp.window
//   64240, udp.srcport 49152, udp.dstport 53, icmp.type 8 (echo request; 128 for ICMPv6), icmp.code 0,
//   ip.hdr_len 5 (more: IPv4 options, the first of type ip.opt.type, else NOP), no payload (ip.len,
//   when given, pads it, or cuts an ICMP error's quoted packet short), sip false.
//
// Every field `edgesim inspect` prints is accepted, so an inspected line pasted into a case works:
// `ip`, `tcp`, `udp` and `icmp` (bytes written as inspect writes them, aa:bb:...) are the packet's
// own bytes from that layer on, as captured (an ip.len beyond them is a packet the capture cut short),
// and the other fields given must then agree with them (checked when the packet is built); `frame`
// names the frame it was inspected from and builds nothing; `note` (what the decoder said of a packet
// it read only in part) given without any field of the packet's transport builds it cut short before
// that transport's header, as such a packet was captured.
//
// Looked-up fields (countries, ASNs, data center) are not in the packet's bytes: when given they
// replace what the lookups would say. A suite error names the key; nothing here builds bytes.
import { SIP_LEAST } from '../capture/decode/sip.js';
import { TRANSPORT_MIN } from '../capture/decode/transport.js';
import { protocolNumber, protocolText } from '../capture/protocols.js';
import { MAX_IP_LENGTH, PROTO_ICMPV6 } from '../capture/synth/frame-builder.js';
import { COLO_NAMES, REGIONS, findColo, findRegion } from '../data/colos.js';
import { parseIPv4 } from '../net/ipv4.js';
import { parseIPv6 } from '../net/ipv6.js';
import { FIELD_REGISTRY, fieldsOfKind, transportOf, type FieldEntry, type FieldKind, type RegisteredField } from '../field-registry.js';
import { placedFields, type LayerField } from '../layers/index.js';
import { describeType, suggestion, type Located } from './source.js';

/** the payload of a packet with `sip: true` */
export const SIP_PAYLOAD = new TextEncoder().encode('OPTIONS sip:edgesim@example.com SIP/2.0\r\n\r\n');
/** the payload of a packet with `sip: true` whose ip.len leaves no room for SIP_PAYLOAD: a status line, as much of it as there is room for (SIP_LEAST at least) */
export const SIP_STATUS = new TextEncoder().encode('SIP/2.0 200 OK\r\n\r\n');

export type Transport = 'tcp' | 'udp' | 'icmp' | 'other';

/** A packet to build: every value decided (defaults applied). */
export interface PacketSpec {
  family: 4 | 6;
  src4: number;
  dst4: number;
  src6: Uint32Array;
  dst6: Uint32Array;
  proto: number;
  ttl: number;
  /** ip.len when given: the payload is padded to it */
  ipLen: number | null;
  srcPort: number;
  dstPort: number;
  tcpFlags: number;
  /** null: the next sequence number of the connection */
  seq: number | null;
  ack: number;
  window: number;
  icmpType: number;
  icmpCode: number;
  sip: boolean;
  /** IPv4 options, (ip.hdr_len - 5) * 4 bytes */
  options: Uint8Array;
  /** the transport payload, or null: none (the SIP request when sip is true) */
  payload: Uint8Array | null;
  /** the packet's bytes from the IP header on (`ip`), or from the transport header on (`tcp`, `udp`, `icmp`) */
  bytes: { readonly layer: 'ip' | 'transport'; readonly data: Uint8Array; readonly at: Located } | null;
  /**
   * a packet whose decoding stopped early (inspect's `note`) and that has none of its transport's
   * fields: captured no further than its IP header (into its options, when it has some)
   */
  cut: boolean;
  /**
   * the values given of the fields their layer places in a header (src/layers/), which the builder
   * writes there (not when the packet's bytes are given: they are checked against them instead)
   */
  placed: ReadonlyArray<readonly [LayerField, number]>;
  /** the fields given beside `bytes`, checked against the built packet */
  agree: ReadonlyArray<readonly [string, Located]>;
  /** seconds after the first packet of the case (packets: sequences) */
  time: number | null;
  lookups: LookupOverrides;
}

/** Values that replace what GeoIP, the ASN database and the data-center table would say. */
export interface LookupOverrides {
  srcCountry?: string;
  dstCountry?: string;
  /** ip.geoip.country: the source country (the field matches the source or the destination) */
  geoipCountry?: string;
  srcAsn?: number;
  dstAsn?: number;
  coloName?: string;
  coloRegion?: string;
}

/** the fields their layer places in a header, by name */
const PLACED = placedFields();

/** a placed field's default: its layer's (src/layers/) */
const layerDefault = (name: string): number => PLACED.get(name)?.default ?? 0;

export const PACKET_DEFAULTS = {
  src4: '198.51.100.20',
  dst4: '203.0.113.10',
  src6: '2001:db8::20',
  dst6: '2001:db8:ffff::10',
  ttl: layerDefault('ip.ttl'),
  tcpSrcPort: layerDefault('tcp.srcport'),
  tcpDstPort: layerDefault('tcp.dstport'),
  udpSrcPort: layerDefault('udp.srcport'),
  udpDstPort: layerDefault('udp.dstport'),
  seq: 1000,
  window: 64240,
} as const;

type Kind = 'ip' | 'int' | 'bool' | 'text' | 'number' | 'bytes';

interface FieldRule {
  kind: Kind;
  /** the transport the field belongs to */
  transport?: Transport;
  max?: number;
}

/** how a suite writes a value of each kind of field */
const RULE_KINDS = { address: 'ip', int: 'int', flag: 'bool', bool: 'bool', name: 'text', raw: 'bytes' } as const satisfies Readonly<Record<FieldKind, Kind>>;

/** the JavaScript value a packet gives for each way a suite writes a value (the checks below: EXPECTED) */
interface KindValue {
  ip: string;
  int: number;
  bool: boolean;
  text: string;
  number: number;
  bytes: string;
}

function fieldRule(f: FieldEntry): FieldRule {
  const transport = transportOf(f);
  return { kind: RULE_KINDS[f.kind], ...(transport === undefined ? {} : { transport }), ...(f.kind === 'int' ? { max: f.max } : {}) };
}

/** the flag booleans, lowest bit first (FIN, SYN, …: the order flagNames says them in) */
const FLAG_BITS: Readonly<Record<string, number>> = Object.fromEntries(fieldsOfKind('flag').sort((a, b) => a.bit - b.bit).map((f) => [f.name, f.bit]));

const rules = (fields: readonly FieldEntry[]): Record<string, FieldRule> => Object.fromEntries(fields.map((f) => [f.name, fieldRule(f)]));

/**
 * Every key a packet may give: the Rules-language fields, plus tcp.seq/ack/window, time, payload,
 * frame and note (what inspect prints beside the fields); the raw bytes last, so that a key as near to `sip` as to `ip` ("sp") is taken for sip.
 */
const PACKET_ONLY = {
  'tcp.seq': { kind: 'int', transport: 'tcp', max: 0xffffffff }, 'tcp.ack': { kind: 'int', transport: 'tcp', max: 0xffffffff },
  'tcp.window': { kind: 'int', transport: 'tcp', max: 0xffff },
  time: { kind: 'number' },
  payload: { kind: 'text' },
  frame: { kind: 'int' },
  note: { kind: 'text' },
} as const satisfies Readonly<Record<string, FieldRule>>;

const FIELDS: Readonly<Record<string, FieldRule>> = {
  ...rules(FIELD_REGISTRY.filter((f) => f.kind !== 'raw')),
  ...PACKET_ONLY,
  ...rules(fieldsOfKind('raw')),
};

/**
 * A packet as a suite's `packet:` gives it, as a type: each key a field of the registry or one of
 * the packet's own (tcp.seq, time, payload, ...), its value of the JavaScript type that key takes
 * (`{ 'tcp.dstport': 22 }`; `{ 'tcp.port': 22 }` and `{ 'tcp.dstport': '22' }` do not compile).
 * Derived from the same tables as FIELDS, so the two cannot differ.
 */
export type PacketValues = {
  readonly [F in RegisteredField as F['name']]?: KindValue[(typeof RULE_KINDS)[F['kind']]];
} & {
  readonly [K in keyof typeof PACKET_ONLY]?: KindValue[(typeof PACKET_ONLY)[K]['kind']];
};

export const PACKET_KEYS: readonly string[] = Object.keys(FIELDS);

const EXPECTED: Readonly<Record<Kind, string>> = {
  ip: 'an address written as a string (e.g. "192.0.2.1")',
  int: 'a whole number',
  bool: 'true or false',
  text: 'a string',
  number: 'a number of seconds',
  bytes: 'bytes written as inspect writes them (e.g. "45:00:00:3c")',
};

const HEX = /^[0-9a-f]{2}(?::[0-9a-f]{2})*$/i;

function hexBytes(text: string): Uint8Array {
  return Uint8Array.from(text.split(':'), (h) => parseInt(h, 16));
}

/** `payload:` as bytes: written as inspect writes bytes (aa:bb:...), else text (UTF-8). */
function payloadBytes(text: string): Uint8Array {
  return HEX.test(text) ? hexBytes(text) : new TextEncoder().encode(text);
}

function flagNames(flags: number): string {
  const names = Object.entries(FLAG_BITS).filter(([, bit]) => (flags & bit) !== 0).map(([k]) => k.slice('tcp.flags.'.length).toUpperCase());
  return names.length === 0 ? 'no flags' : names.join(' ');
}

function checkValue(rule: FieldRule, at: Located): void {
  const v = at.value;
  const type = at.type;
  const ok =
    (rule.kind === 'ip' && type === 'string') ||
    ((rule.kind === 'text' || rule.kind === 'bytes') && type === 'string') ||
    (rule.kind === 'bool' && type === 'boolean') ||
    ((rule.kind === 'int' || rule.kind === 'number') && type === 'number');
  if (!ok) at.fail(`expected ${EXPECTED[rule.kind]}, got ${type === 'string' ? JSON.stringify(v) : describeType(type)}`);
  if (rule.kind === 'int') {
    const n = v as number;
    if (!Number.isInteger(n)) at.fail(`expected a whole number, got ${n}`);
    if (n < 0 || n > (rule.max ?? 0xffffffff)) at.fail(`${n} is out of range (0 to ${rule.max})`);
  }
  if (rule.kind === 'bytes' && !HEX.test(v as string)) at.fail(`expected ${EXPECTED.bytes}, got ${JSON.stringify(v)}`);
  if (rule.kind === 'number' && !((v as number) >= 0)) at.fail(`expected a number of seconds, 0 or more, got ${String(v)}`);
}

interface Address {
  family: 4 | 6;
  v4: number;
  v6: Uint32Array;
}

function address(at: Located): Address {
  const text = at.value as string;
  const v4 = parseIPv4(text);
  if (v4 >= 0) return { family: 4, v4, v6: new Uint32Array(4) };
  const v6 = parseIPv6(text);
  if (v6 !== null) return { family: 6, v4: 0, v6 };
  if (text.includes('/')) at.fail(`expected one address, got the network ${JSON.stringify(text)}`);
  return at.fail(`${JSON.stringify(text)} is not an IPv4 or IPv6 address`);
}

/** the bytes of a transport's header the builder writes before a payload */
const TRANSPORT_HEADER: Readonly<Record<Transport, number>> = { tcp: 20, udp: 8, icmp: 8, other: 4 };
/** the bytes of a transport's header its fields need (the decoder's minimum) */
const TRANSPORT_FIELDS: Readonly<Record<Transport, number>> = { ...TRANSPORT_MIN, other: 0 };
/** the most bytes a capture holds of a frame (tcpdump's largest snapshot length) */
export const MAX_CAPTURED = 262144;

const PROTO_TRANSPORT: Readonly<Record<number, Transport>> = { 6: 'tcp', 17: 'udp', 1: 'icmp', 58: 'icmp' };

/** Checks a `packet:` map and completes it with the defaults; throws SuiteError naming the key. */
export function parsePacket(node: Located): PacketSpec {
  const given = new Map<string, Located>();
  for (const [name, at] of node.entries('a packet (a map of field names to values)')) {
    const rule = FIELDS[name];
    if (rule === undefined) return at.failKey(`unknown field${suggestion(name, PACKET_KEYS, false)}`);
    checkValue(rule, at);
    given.set(name, at);
  }
  const get = <T>(name: string): T | undefined => given.get(name)?.value as T | undefined;

  // the transport: from ip.proto, else from the fields given; fields of two transports contradict
  let transport: Transport | null = null;
  let transportKey = '';
  for (const [name, at] of given) {
    const t = FIELDS[name]!.transport;
    if (t === undefined) continue;
    if (transport !== null && t !== transport) at.failKey(`contradicts ${transportKey} (a packet is ${transport} or ${t}, not both)`);
    transport = t;
    transportKey = name;
  }
  const src = given.has('ip.src') ? address(given.get('ip.src')!) : null;
  const dst = given.has('ip.dst') ? address(given.get('ip.dst')!) : null;
  if (src !== null && dst !== null && src.family !== dst.family) given.get('ip.dst')!.fail(`is IPv${dst.family} but ip.src is IPv${src.family}`);
  const family = (src ?? dst)?.family ?? 4;

  let proto: number;
  const protoAt = given.get('ip.proto');
  if (protoAt !== undefined) {
    const n = protocolNumber(protoAt.value as string);
    if (n === undefined) return protoAt.fail(`unknown protocol ${JSON.stringify(protoAt.value)} (write it as ip.proto names it, e.g. "tcp", "udp", "icmp", "ipv6-icmp")`);
    const own = PROTO_TRANSPORT[n] ?? 'other';
    if (transport !== null && own !== transport) given.get(transportKey)!.failKey(`contradicts ip.proto ${protocolText(n)}`);
    proto = n;
    transport = own;
  } else {
    transport ??= 'tcp';
    proto = transport === 'tcp' ? 6 : transport === 'udp' ? 17 : family === 6 ? 58 : 1;
  }

  // tcp.flags: the number, the booleans, or SYN; when both are given they must agree
  let flags: number;
  const number = get<number>('tcp.flags');
  const booleans = Object.keys(FLAG_BITS).filter((k) => given.has(k));
  if (number !== undefined) {
    flags = number;
    for (const k of booleans) {
      const want = get<boolean>(k)!;
      if (((number & FLAG_BITS[k]!) !== 0) !== want) given.get(k)!.fail(`${want} disagrees with tcp.flags ${number} (0x${number.toString(16).padStart(2, '0')}: ${flagNames(number)})`);
    }
  } else if (booleans.length > 0) {
    flags = booleans.reduce((f, k) => (get<boolean>(k) ? f | FLAG_BITS[k]! : f), 0);
  } else flags = 0x02;

  const sipAt = given.get('sip');
  if (sipAt?.value === true && transport !== 'tcp' && transport !== 'udp') sipAt.fail(`true needs a TCP or UDP packet, not ${protocolText(proto)}`);

  const { hdrLen, options } = ipv4Header(given, family);
  const payloadAt = given.get('payload');
  const payload = payloadAt === undefined ? null : payloadBytes(payloadAt.value as string);
  const icmpType = get<number>('icmp.type') ?? (proto === PROTO_ICMPV6 ? 128 : 8);
  const bytes = rawBytes(given);
  // the least ip.len: the headers, as much of the transport's as its fields given need (without them,
  // a packet cut short of its transport header), and a payload asked for
  const header = family === 4 ? hdrLen * 4 : 40;
  const body = payload?.length ?? (sipAt?.value === true ? SIP_LEAST : 0);
  const least = header + (body > 0 ? TRANSPORT_HEADER[transport] : transportKey !== '' ? TRANSPORT_FIELDS[transport] : 0) + body;
  const most = MAX_IP_LENGTH[family];
  if (least > most) payloadAt?.fail(`${payload!.length} bytes do not fit a packet (at most ${most} bytes with its headers)`);
  const headers = bytes?.layer === 'transport' ? header : 0;
  const captured = MAX_CAPTURED - 14;
  if (bytes !== null && headers + bytes.data.length > captured) bytes.at.fail(`${bytes.data.length} bytes do not fit a captured frame (at most ${captured - headers} here)`);
  const lenAt = given.get('ip.len');
  if (lenAt !== undefined && bytes === null) {
    const n = lenAt.value as number;
    if (n < least) lenAt.fail(`${n} does not fit this packet (its headers${body > 0 ? ' and payload' : ''} take ${least} bytes)`);
  }

  const lookups = parseLookups(given);
  const udp = transport === 'udp';
  return {
    family,
    src4: src?.v4 ?? parseIPv4(PACKET_DEFAULTS.src4),
    dst4: dst?.v4 ?? parseIPv4(PACKET_DEFAULTS.dst4),
    src6: src?.v6 ?? parseIPv6(PACKET_DEFAULTS.src6)!,
    dst6: dst?.v6 ?? parseIPv6(PACKET_DEFAULTS.dst6)!,
    proto,
    ttl: get<number>('ip.ttl') ?? PACKET_DEFAULTS.ttl,
    ipLen: get<number>('ip.len') ?? null,
    srcPort: get<number>(udp ? 'udp.srcport' : 'tcp.srcport') ?? (udp ? PACKET_DEFAULTS.udpSrcPort : PACKET_DEFAULTS.tcpSrcPort),
    dstPort: get<number>(udp ? 'udp.dstport' : 'tcp.dstport') ?? (udp ? PACKET_DEFAULTS.udpDstPort : PACKET_DEFAULTS.tcpDstPort),
    tcpFlags: flags,
    seq: get<number>('tcp.seq') ?? null,
    ack: get<number>('tcp.ack') ?? 0,
    window: get<number>('tcp.window') ?? PACKET_DEFAULTS.window,
    icmpType,
    icmpCode: get<number>('icmp.code') ?? layerDefault('icmp.code'),
    sip: get<boolean>('sip') ?? false,
    options,
    payload,
    bytes,
    cut: given.has('note') && bytes === null && payload === null && sipAt?.value !== true && transportKey === '' && transport !== 'other',
    placed: [...given].flatMap(([name, at]) => {
      const field = PLACED.get(name);
      return field === undefined ? [] : [[field, at.value as number] as const];
    }),
    agree: bytes === null && payload === null ? [] : [...given].filter(([name]) => !['frame', 'note', 'time', 'payload'].includes(name) && FIELDS[name]!.kind !== 'bytes'),
    time: get<number>('time') ?? null,
    lookups,
  };
}

/** ip.hdr_len and ip.opt.type: the IPv4 header's length and its options (the first of type ip.opt.type, NOP when not given). */
function ipv4Header(given: Map<string, Located>, family: 4 | 6): { hdrLen: number; options: Uint8Array } {
  const lenAt = given.get('ip.hdr_len');
  const typeAt = given.get('ip.opt.type');
  if (family === 6) (lenAt ?? typeAt)?.failKey('is an IPv4 header field, but the packet is IPv6');
  const hdrLen = (lenAt?.value as number | undefined) ?? (typeAt === undefined ? 5 : 6);
  if (hdrLen < 5) lenAt!.fail(`${hdrLen} is too small: an IPv4 header is 5 to 15 32-bit words (5: no options)`);
  if (hdrLen === 5 && typeAt !== undefined) typeAt.failKey('needs IPv4 options: ip.hdr_len 6 or more (ip.hdr_len 5 is a header without them)');
  const options = new Uint8Array((hdrLen - 5) * 4);
  const type = (typeAt?.value as number | undefined) ?? 1;
  if (options.length > 0) options[0] = type;
  // a single-byte option (0 end of list, 1 no-operation) is followed by end-of-list padding; others carry their length
  if (type > 1) options[1] = options.length;
  return { hdrLen, options };
}

/** the raw-bytes field given (the IP packet's before a transport's, as the registry lists them) */
function rawBytes(given: Map<string, Located>): PacketSpec['bytes'] {
  const field = fieldsOfKind('raw').find((f) => given.has(f.name));
  if (field === undefined) return null;
  const at = given.get(field.name)!;
  return { layer: field.part === 'ip' ? 'ip' : 'transport', data: hexBytes(at.value as string), at };
}

function country(at: Located | undefined): string | undefined {
  if (at === undefined) return undefined;
  const text = at.value as string;
  if (!/^[A-Za-z]{2}$/.test(text)) at.fail(`expected a two-letter country code such as "DE", got ${JSON.stringify(text)}`);
  return text.toUpperCase();
}

function parseLookups(given: Map<string, Located>): LookupOverrides {
  const out: LookupOverrides = {};
  out.srcCountry = country(given.get('ip.src.country'));
  out.dstCountry = country(given.get('ip.dst.country'));
  out.geoipCountry = country(given.get('ip.geoip.country'));
  out.srcAsn = given.get('ip.src.asnum')?.value as number | undefined;
  out.dstAsn = given.get('ip.dst.asnum')?.value as number | undefined;
  const colo = given.get('cf.colo.name');
  if (colo !== undefined) {
    const found = findColo(colo.value as string);
    if (found === undefined) return colo.fail(`unknown data center ${JSON.stringify(colo.value)}${suggestion((colo.value as string).toLowerCase(), COLO_NAMES, false)}`);
    out.coloName = found.name;
    out.coloRegion = found.region;
  }
  const region = given.get('cf.colo.region');
  if (region !== undefined) {
    const found = findRegion(region.value as string);
    if (found === undefined) return region.fail(`unknown region ${JSON.stringify(region.value)}; expected one of ${REGIONS.join(', ')}`);
    if (colo !== undefined && out.coloRegion !== found) region.fail(`${found} disagrees with cf.colo.name ${out.coloName} (in ${out.coloRegion})`);
    out.coloRegion = found;
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as LookupOverrides;
}
