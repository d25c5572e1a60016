// A flow spec: the description of a synthetic capture as a list of parts (legit TCP sessions, DNS,
// QUIC-like UDP, pings, SYN floods, ACK/RST floods), each with its addresses, ports, timing and
// size. The built-in scenarios are flow specs too (scenarios.ts); a user writes one as JSON for a
// custom mix. parseSpec() is the single place that checks one: every problem is reported with the
// path of the bad key (`parts[2].rate: ...`) and the input is never half-accepted.
import { NetParseError, formatCidr, parseCidr } from '../../net/cidr.js';
import type { Cidr } from '../../net/cidr.js';
import { COUNTRIES, COUNTRY_PREFIXES } from './countries.js';
import { checkKeys, describe, fail, number, object, stringList } from './json-checks.js';
import type { Obj } from './json-checks.js';
import { SpecError } from './spec-error.js';

export { SpecError };

/** The kinds of traffic a part can generate. */
export type PartKind = 'handshake' | 'syn-flood' | 'ack-flood' | 'dns' | 'udp' | 'icmp';

/** What a frame of a part is, for scoring mitigation: legitimate traffic or attack traffic. */
export type TrafficLabel = 'legit' | 'attack';

/** One validated part of a flow spec, with every default filled in. */
export interface PartSpec {
  name: string;
  kind: PartKind;
  label: TrafficLabel;
  /** exactly one of packets / flows / rate / share was given, or share was assigned */
  packets?: number;
  flows?: number;
  rate?: number;
  share?: number;
  /** seconds from the capture's start */
  start: number;
  /** seconds; the part runs from start to start + duration */
  duration: number;
  /** where initiators come from (countries' blocks already included) */
  sources: Cidr[];
  servers: Cidr[];
  /** destination ports (none for icmp) */
  ports: number[];
  /** share of flows over IPv6 when sources and servers both have both families */
  v6: number;
  /** request/response exchanges per flow, inclusive range (flow kinds only) */
  exchanges: [number, number];
  /** ack-flood: share of RST packets */
  rst: number;
}

/** A validated flow spec. */
export interface FlowSpec {
  seed: number;
  /** total packets that share-sized parts divide among them */
  packets: number;
  /** the capture's length in seconds */
  duration: number;
  /** the capture's first second, seconds since the epoch */
  start: number;
  parts: PartSpec[];
}

interface KindInfo {
  label: TrafficLabel;
  /** one packet per "flow": no exchanges, no flow ids */
  single: boolean;
  servers: readonly string[];
  ports: readonly number[];
  sources: readonly string[] | 'countries';
  exchanges: [number, number];
}

const WEB = ['203.0.113.10', '2001:db8:ffff::10'];

/** Defaults of every kind: what a part gets for each key it leaves out. */
export const KINDS: Readonly<Record<PartKind, KindInfo>> = {
  handshake: { label: 'legit', single: false, servers: WEB, ports: [80, 443, 22], sources: 'countries', exchanges: [1, 3] },
  dns: { label: 'legit', single: false, servers: ['198.51.100.53', '2001:db8:53::53'], ports: [53], sources: 'countries', exchanges: [1, 1] },
  udp: { label: 'legit', single: false, servers: WEB, ports: [443], sources: 'countries', exchanges: [1, 4] },
  icmp: { label: 'legit', single: false, servers: WEB, ports: [], sources: 'countries', exchanges: [1, 4] },
  'syn-flood': { label: 'attack', single: true, servers: ['203.0.113.10'], ports: [80], sources: ['0.0.0.0/0'], exchanges: [0, 0] },
  'ack-flood': { label: 'attack', single: true, servers: ['203.0.113.10'], ports: [80, 443], sources: ['0.0.0.0/0'], exchanges: [0, 0] },
};

const KIND_NAMES = Object.keys(KINDS) as PartKind[];
const TOP_KEYS = ['seed', 'packets', 'duration', 'start', 'parts'];
const PART_KEYS = ['name', 'kind', 'label', 'packets', 'flows', 'rate', 'share', 'start', 'duration', 'sources', 'countries', 'servers', 'ports', 'v6', 'exchanges', 'rst'];
const QUANTITIES = ['packets', 'flows', 'rate', 'share'] as const;

/** Defaults of the top level. */
export const SPEC_DEFAULTS = { seed: 1, packets: 10_000, duration: 60, start: Date.UTC(2024, 0, 1) / 1000 };
/** Upper bound of --packets: a sanity limit, far beyond any capture a test needs. */
export const MAX_PACKETS = 100_000_000;

function prefixes(texts: readonly string[], path: string): Cidr[] {
  return texts.map((t, i) => {
    try {
      return parseCidr(t);
    } catch (err) {
      if (err instanceof NetParseError) fail(`${path}[${i}]`, err.message);
      throw err;
    }
  });
}

function countryPrefixes(codes: readonly string[], path: string): string[] {
  return codes.flatMap((c, i) => {
    const list = COUNTRY_PREFIXES[c.toUpperCase()];
    if (!list) fail(`${path}[${i}]`, `no address blocks for country ${JSON.stringify(c)}; known: ${COUNTRIES.join(', ')}`);
    return list;
  });
}

function epochSeconds(v: unknown, path: string): number {
  if (typeof v === 'string') {
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) fail(path, `${JSON.stringify(v)} is not a date (use ISO 8601, e.g. 2024-01-01T00:00:00Z, or seconds since the epoch)`);
    return number(Math.floor(ms / 1000), path, 0, 0xffffffff - 1e6, true);
  }
  return number(v, path, 0, 0xffffffff - 1e6, true);
}

function range(v: unknown, path: string): [number, number] {
  if (typeof v === 'number') {
    const n = number(v, path, 1, 100, true);
    return [n, n];
  }
  if (!Array.isArray(v) || v.length !== 2) fail(path, `expected a number or [min, max], got ${describe(v)}`);
  const lo = number(v[0], `${path}[0]`, 1, 100, true);
  const hi = number(v[1], `${path}[1]`, lo, 100, true);
  return [lo, hi];
}

function parsePart(raw: unknown, path: string, top: { duration: number }): PartSpec {
  const o = object(raw, path);
  checkKeys(o, PART_KEYS, path);
  if (o.kind === undefined) fail(`${path}.kind`, `missing; expected one of ${KIND_NAMES.join(', ')}`);
  if (typeof o.kind !== 'string' || !(KIND_NAMES as string[]).includes(o.kind)) {
    fail(`${path}.kind`, `unknown kind ${describe(o.kind)}; expected one of ${KIND_NAMES.join(', ')}`);
  }
  const kind = o.kind as PartKind;
  const info = KINDS[kind];
  const at = (key: string): string => `${path}.${key}`;

  let name: string = kind;
  if (o.name !== undefined) {
    if (typeof o.name !== 'string' || o.name.length === 0 || o.name.length > 64) fail(at('name'), `expected a name of 1 to 64 characters, got ${describe(o.name)}`);
    name = o.name;
  }
  let label = info.label;
  if (o.label !== undefined) {
    if (o.label !== 'legit' && o.label !== 'attack') fail(at('label'), `expected "legit" or "attack", got ${describe(o.label)}`);
    label = o.label;
  }

  const given = QUANTITIES.filter((q) => o[q] !== undefined);
  if (given.length > 1) fail(path, `give only one of ${given.join(', ')}`);
  const part: PartSpec = {
    name,
    kind,
    label,
    start: 0,
    duration: 0,
    sources: [],
    servers: [],
    ports: [],
    v6: 0.3,
    exchanges: info.exchanges,
    rst: kind === 'ack-flood' ? 0.2 : 0,
  };
  if (o.packets !== undefined) part.packets = number(o.packets, at('packets'), 1, MAX_PACKETS, true);
  if (o.flows !== undefined) {
    if (info.single) fail(at('flows'), `${kind} parts have no flows; give packets, rate or share`);
    part.flows = number(o.flows, at('flows'), 1, MAX_PACKETS / 2, true);
  }
  if (o.rate !== undefined) part.rate = number(o.rate, at('rate'), 0, 10_000_000, false, true);
  if (o.share !== undefined) part.share = number(o.share, at('share'), 0, 1, false, true);

  part.start = o.start === undefined ? 0 : number(o.start, at('start'), 0, top.duration, false);
  if (part.start >= top.duration) fail(at('start'), `${part.start} s is not before the end of the capture (${top.duration} s)`);
  part.duration = o.duration === undefined ? top.duration - part.start : number(o.duration, at('duration'), 0, 86400 * 365, false, true);
  if (part.start + part.duration > top.duration + 1e-9) {
    fail(at('duration'), `start + duration (${part.start + part.duration} s) is past the end of the capture (${top.duration} s)`);
  }

  const sourceTexts = o.sources === undefined ? [] : stringList(o.sources, at('sources'));
  const countryTexts = o.countries === undefined ? [] : stringList(o.countries, at('countries'));
  part.sources = [...prefixes(sourceTexts, at('sources')), ...prefixes(countryPrefixes(countryTexts, at('countries')), at('countries'))];
  if (part.sources.length === 0) {
    part.sources = prefixes(info.sources === 'countries' ? Object.values(COUNTRY_PREFIXES).flat() : info.sources, at('sources'));
  }
  part.servers = o.servers === undefined ? prefixes(info.servers, at('servers')) : prefixes(stringList(o.servers, at('servers')), at('servers'));
  if (part.servers.length === 0) fail(at('servers'), 'needs at least one address or prefix');

  if (o.ports !== undefined) {
    if (kind === 'icmp') fail(at('ports'), 'icmp has no ports');
    const list = typeof o.ports === 'number' ? [o.ports] : o.ports;
    if (!Array.isArray(list) || list.length === 0) fail(at('ports'), `expected a port or a non-empty list of ports, got ${describe(o.ports)}`);
    part.ports = list.map((p, i) => number(p, `${at('ports')}[${i}]`, 1, 65535, true));
  } else part.ports = [...info.ports];

  if (o.v6 !== undefined) part.v6 = number(o.v6, at('v6'), 0, 1, false);
  if (o.exchanges !== undefined) {
    if (info.single) fail(at('exchanges'), `${kind} parts send single packets; exchanges applies to handshake, dns, udp and icmp`);
    part.exchanges = range(o.exchanges, at('exchanges'));
  }
  if (o.rst !== undefined) {
    if (kind !== 'ack-flood') fail(at('rst'), 'only ack-flood parts take rst');
    part.rst = number(o.rst, at('rst'), 0, 1, false);
  }

  const has = (pool: Cidr[], f: 4 | 6): boolean => pool.some((c) => c.family === f);
  if (!((has(part.sources, 4) && has(part.servers, 4)) || (has(part.sources, 6) && has(part.servers, 6)))) {
    fail(path, 'sources and servers have no address family in common');
  }
  return part;
}

/** Overrides of a spec's top level (command-line flags win over the file). */
export interface SpecOverrides {
  seed?: number;
  packets?: number;
  duration?: number;
  start?: number | string;
}

/**
 * Validates a flow spec (parsed JSON) and fills in every default. Throws SpecError naming the bad
 * key. Shares are of `packets`, so they must add up to 1; parts without a size share what the
 * shares leave.
 */
export function parseSpec(raw: unknown, overrides: SpecOverrides = {}): FlowSpec {
  const o = object(raw, 'spec');
  checkKeys(o, TOP_KEYS, '');
  const pick = (key: keyof SpecOverrides): unknown => overrides[key] ?? o[key];
  const seed = pick('seed') === undefined ? SPEC_DEFAULTS.seed : number(pick('seed'), 'seed', 0, 0xffffffff, true);
  const packets = pick('packets') === undefined ? SPEC_DEFAULTS.packets : number(pick('packets'), 'packets', 1, MAX_PACKETS, true);
  const duration = pick('duration') === undefined ? SPEC_DEFAULTS.duration : number(pick('duration'), 'duration', 0, 86400 * 365, false, true);
  const start = pick('start') === undefined ? SPEC_DEFAULTS.start : epochSeconds(pick('start'), 'start');

  if (!Array.isArray(o.parts) || o.parts.length === 0) fail('parts', `expected a non-empty list of parts, got ${describe(o.parts)}`);
  const parts = o.parts.map((p, i) => parsePart(p, `parts[${i}]`, { duration }));

  const named = new Map<string, number>();
  parts.forEach((p, i) => {
    const explicit = (o.parts as Obj[])[i]!.name !== undefined;
    if (named.has(p.name)) {
      if (explicit) fail(`parts[${i}].name`, `${JSON.stringify(p.name)} is already the name of parts[${named.get(p.name)}]`);
      let n = 2;
      while (named.has(`${p.name}-${n}`)) n++;
      p.name = `${p.name}-${n}`;
    }
    named.set(p.name, i);
  });

  const shared = parts.reduce((s, p) => s + (p.share ?? 0), 0);
  if (shared > 1 + 1e-9) fail('parts', `the shares add up to ${+shared.toFixed(6)}, more than 1`);
  const unsized = parts.filter((p) => QUANTITIES.every((q) => p[q] === undefined));
  if (unsized.length === 0 && shared > 0 && shared < 1 - 1e-9) {
    fail('parts', `the shares add up to ${+shared.toFixed(6)}, less than 1, so ${+((1 - shared) * 100).toFixed(4)}% of the packets would be missing; make them add up to 1, or leave a part without a size to take the rest`);
  }
  if (unsized.length > 0) {
    const left = 1 - shared;
    if (left <= 1e-9) fail(`parts[${parts.indexOf(unsized[0]!)}]`, 'the other parts take every packet; give it packets, flows, rate or share');
    for (const p of unsized) p.share = left / unsized.length;
  }
  return { seed, packets, duration, start, parts };
}

/** A validated spec as JSON data that parseSpec accepts again (every default spelled out). */
export function specToJson(spec: FlowSpec): Record<string, unknown> {
  return {
    seed: spec.seed,
    packets: spec.packets,
    duration: spec.duration,
    start: new Date(spec.start * 1000).toISOString(),
    parts: spec.parts.map((p) => ({
      name: p.name,
      kind: p.kind,
      label: p.label,
      ...Object.fromEntries(QUANTITIES.filter((q) => p[q] !== undefined).map((q) => [q, p[q]])),
      start: p.start,
      duration: p.duration,
      sources: p.sources.map(formatCidr),
      servers: p.servers.map(formatCidr),
      ...(p.kind === 'icmp' ? {} : { ports: p.ports }),
      v6: p.v6,
      ...(KINDS[p.kind].single ? {} : { exchanges: p.exchanges }),
      ...(p.kind === 'ack-flood' ? { rst: p.rst } : {}),
    })),
  };
}
