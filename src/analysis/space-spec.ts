// A box of the header space written back as a suite's `space:` (field: list of values, or
// `{not: [values]}` for every value but those), the inverse of prove.ts's spaceExpression, for the
// boxes `edgesim pin` pins. A dimension is written as its values, or else as the rest of the
// field's values (`not`, which takes in packets without the field: only where the box holds
// "absent" or the field is never absent); a dimension neither can say within MAX_VALUES values (a
// country no expression names, a list's thousand ranges) makes the box unwritable (null), and
// writablePart gives the largest part of it that can be said. The box's family and transport are
// said even when no field of it is constrained (`ip.src: [0.0.0.0/0]`, `ip.proto: tcp`), so the
// space is the box within the packets that can reach the firewall.
import { protocolText } from '../capture/protocols.js';
import type { FieldEntry } from '../field-registry.js';
import { FIELD_DIMENSIONS, fieldOf } from './field-dimensions.js';
import { type Intervals, equal, point, subtract } from './intervals.js';
import type { NameTables } from './names.js';
import type { HeaderSpaceSpec, SpaceValue } from './prove.js';
import { ABSENT, type Box, Dim, L4, type Region, V6_BASE } from './space.js';
import { addressText } from './witness.js';

/** the most values one field of a written space lists */
const MAX_VALUES = 16;

/** CIDR blocks covering [lo, hi] exactly, on an axis of `bits`-bit values starting at `base`. */
function cidrs(lo: bigint, hi: bigint, base: bigint, bits: number): string[] {
  const out: string[] = [];
  let v = lo - base;
  const end = hi - base;
  while (v <= end && out.length <= MAX_VALUES) {
    let size = 0;
    while (size < bits && (v & ((1n << BigInt(size + 1)) - 1n)) === 0n && v + (1n << BigInt(size + 1)) - 1n <= end) size++;
    out.push(`${addressText(v + base)}/${bits - size}`);
    v += 1n << BigInt(size);
  }
  return out;
}

function addresses(set: Intervals): string[] | null {
  const out: string[] = [];
  for (let i = 0; i < set.length; i += 2) {
    const v6 = set[i]! >= V6_BASE;
    out.push(...cidrs(set[i]!, set[i + 1]!, v6 ? V6_BASE : 0n, v6 ? 128 : 32));
  }
  return out.length > MAX_VALUES ? null : out;
}

function numbers(set: Intervals): SpaceValue[] | null {
  if (set[0] === ABSENT || set.length / 2 > MAX_VALUES) return null;
  const out: SpaceValue[] = [];
  for (let i = 0; i < set.length; i += 2) out.push(set[i] === set[i + 1] ? Number(set[i]) : `${set[i]}-${set[i + 1]}`);
  return out;
}

function names(set: Intervals, text: (i: number) => string | undefined): SpaceValue[] | null {
  if (set[0] === ABSENT || set.length / 2 > MAX_VALUES) return null;
  const out: SpaceValue[] = [];
  for (let i = 0; i < set.length; i += 2) {
    for (let v = set[i]!; v <= set[i + 1]!; v++) {
      const t = text(Number(v));
      if (t === undefined || out.length >= MAX_VALUES) return null;
      out.push(t);
    }
  }
  return out;
}


/** The largest ranges of `set` (by how many values they hold) whose written values stay within MAX_VALUES, in order. */
function largest(set: Intervals, cost: (lo: bigint, hi: bigint) => number): Intervals {
  const ranges: Array<[bigint, bigint]> = [];
  // "absent" left out
  for (let i = 0; i < set.length; i += 2) if (set[i + 1]! > ABSENT) ranges.push([set[i] === ABSENT ? ABSENT + 1n : set[i]!, set[i + 1]!]);
  ranges.sort((a, b) => (b[1] - b[0] > a[1] - a[0] ? 1 : b[1] - b[0] < a[1] - a[0] ? -1 : a[0] < b[0] ? -1 : 1));
  const kept: Array<[bigint, bigint]> = [];
  let used = 0;
  for (const [lo, hi] of ranges) {
    const c = cost(lo, hi);
    if (used + c > MAX_VALUES) continue;
    used += c;
    kept.push([lo, hi]);
  }
  return kept.sort((a, b) => (a[0] < b[0] ? -1 : 1)).flat();
}

const TRANSPORT_NAME: Readonly<Record<string, string>> = { [String(L4.tcp)]: 'tcp', [String(L4.udp)]: 'udp' };

type DimText = SpaceValue | SpaceValue[] | { not: SpaceValue[] };

/** How a box's dimensions are written: in the box's family and transport, against its universe box. */
class BoxWriter {
  readonly home: Box | undefined;
  readonly transport: string | undefined;
  readonly family6: boolean;
  private readonly nameText: Readonly<Record<number, (i: number) => string | undefined>>;

  constructor(box: Box, universe: Region, private readonly tables: NameTables) {
    const l4 = box[Dim.l4]!;
    this.family6 = box[Dim.src]![0]! >= V6_BASE;
    const home = universe.find((u) => equal(u[Dim.l4]!, l4) && u[Dim.src]![0]! >= V6_BASE === this.family6);
    this.home = l4.length === 2 && l4[0] === l4[1] ? home : undefined;
    this.transport = TRANSPORT_NAME[String(l4[0])];
    const countryText = (i: number): string | undefined => (i < tables.countries.length ? tables.countries[i] : undefined);
    this.nameText = {
      [Dim.proto]: (n) => protocolText(n),
      [Dim.srcCountry]: countryText,
      [Dim.dstCountry]: countryText,
      [Dim.coloName]: (i) => tables.coloNameText(i),
      [Dim.coloRegion]: (i) => tables.coloRegionText(i),
    };
  }

  private values(f: FieldEntry, d: number, set: Intervals): SpaceValue[] | null {
    return f.kind === 'address' ? addresses(set) : f.kind === 'int' ? numbers(set) : f.kind === 'name' && this.nameText[d] !== undefined ? names(set, this.nameText[d]!) : null;
  }

  /**
   * Dimension `d` holding `set` as a space says it: its values, or every value but the rest of the
   * field's (`{not: […]}`, which takes in packets without the field, so only where the set holds
   * "absent" or the field is never absent; an address's other family is named among the rest);
   * null when neither can be written.
   */
  text(d: number, set: Intervals): { field: string; text: DimText } | null {
    const field = fieldOf(d, this.transport);
    if (field === undefined) return null;
    if (field.kind === 'bool') return { field: field.name, text: set[0] === 1n };
    const direct = set[0] === ABSENT ? null : this.values(field, d, set);
    const rest = subtract(this.home![d]!, set);
    const others = rest[0] === ABSENT ? null : this.values(field, d, rest);
    if (others !== null && field.kind === 'address') others.push(this.family6 ? '0.0.0.0/0' : '::/0');
    // the shorter of the two
    if (direct !== null && (others === null || direct.length <= others.length)) return { field: field.name, text: direct };
    return others === null ? null : { field: field.name, text: { not: others } };
  }

  /** The cost of writing a range of `d` as values. */
  cost(d: number): (lo: bigint, hi: bigint) => number {
    const field = fieldOf(d, this.transport);
    if (field?.kind === 'address') return (lo, hi) => cidrs(lo, hi, lo >= V6_BASE ? V6_BASE : 0n, lo >= V6_BASE ? 128 : 32).length;
    if (field?.kind === 'name') return (lo, hi) => Number(hi - lo + 1n);
    return () => 1;
  }
}

/**
 * A part of `box` that a space can say (boxSpace), and whether it is the whole box: a field neither
 * its values nor the rest of the field's can say (more than MAX_VALUES of either) keeps its largest
 * ranges, without "absent" and countries no expression names. Null when no part can be said.
 */
export function writablePart(box: Box, universe: Region, tables: NameTables): { box: Box; whole: boolean } | null {
  const w = new BoxWriter(box, universe, tables);
  if (w.home === undefined) return null;
  const part = box.slice();
  let whole = true;
  for (const d of FIELD_DIMENSIONS) {
    const set = box[d]!;
    if (equal(set, w.home[d]!) || w.text(d, set) !== null) continue;
    // a country no expression names has no code to write
    const sayable = d === Dim.srcCountry || d === Dim.dstCountry ? subtract(set, point(BigInt(tables.countries.length))) : set;
    const kept = largest(sayable, w.cost(d));
    if (kept.length === 0 || w.text(d, kept) === null) return null;
    part[d] = kept;
    whole = false;
  }
  return { box: part, whole };
}

/** The space of one box of `universe` (the boxes a region is built in), or null when the text cannot say it. */
export function boxSpace(box: Box, universe: Region, tables: NameTables): HeaderSpaceSpec | null {
  const w = new BoxWriter(box, universe, tables);
  if (w.home === undefined) return null;
  const spec: Record<string, DimText> = {};
  for (const d of FIELD_DIMENSIONS) {
    if (equal(box[d]!, w.home[d]!)) continue;
    const said = w.text(d, box[d]!);
    if (said === null) return null;
    spec[said.field] = said.text;
  }
  // the family: an address's values, or its `not` (which names the other family's addresses)
  if (spec['ip.src'] === undefined && spec['ip.dst'] === undefined) spec['ip.src'] = [w.family6 ? '::/0' : '0.0.0.0/0'];
  const l4 = box[Dim.l4]![0]!;
  if (w.transport !== undefined && spec['ip.proto'] === undefined) spec['ip.proto'] = w.transport;
  if (l4 === L4.icmp && spec['ip.proto'] === undefined) spec['ip.proto'] = w.family6 ? 'ipv6-icmp' : 'icmp';
  return spec;
}
