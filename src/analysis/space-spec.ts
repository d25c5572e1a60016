// A box of the header space written back as a suite's `space:` (field: list of values), the
// inverse of prove.ts's spaceExpression, for the boxes `edgesim pin` pins. Only a box the text can
// say is written: a dimension holding "absent" beside values, a country no expression names, or
// more than a handful of ranges makes the box unwritable (null). The box's family and transport
// are said even when no field of it is constrained (`ip.src: [0.0.0.0/0]`, `ip.proto: tcp`), so
// the space is the box within the packets that can reach the firewall.
import { protocolText } from '../capture/protocols.js';
import type { FieldEntry } from '../field-registry.js';
import { FIELD_DIMENSIONS, fieldOf } from './field-dimensions.js';
import { type Intervals, equal } from './intervals.js';
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

const TRANSPORT_NAME: Readonly<Record<string, string>> = { [String(L4.tcp)]: 'tcp', [String(L4.udp)]: 'udp' };

/** The space of one box of `universe` (the boxes a region is built in), or null when the text cannot say it. */
export function boxSpace(box: Box, universe: Region, tables: NameTables): HeaderSpaceSpec | null {
  const l4 = box[Dim.l4]!;
  const family6 = box[Dim.src]![0]! >= V6_BASE;
  const home = universe.find((u) => equal(u[Dim.l4]!, l4) && u[Dim.src]![0]! >= V6_BASE === family6);
  if (l4.length !== 2 || l4[0] !== l4[1] || home === undefined) return null;
  const spec: Record<string, SpaceValue | SpaceValue[]> = {};
  const transport = TRANSPORT_NAME[String(l4[0])];
  const countryText = (i: number): string | undefined => (i < tables.countries.length ? tables.countries[i] : undefined);
  const nameText: Readonly<Record<number, (i: number) => string | undefined>> = {
    [Dim.proto]: (n) => protocolText(n),
    [Dim.srcCountry]: countryText,
    [Dim.dstCountry]: countryText,
    [Dim.coloName]: (i) => tables.coloNameText(i),
    [Dim.coloRegion]: (i) => tables.coloRegionText(i),
  };
  const write = (f: FieldEntry, d: number, set: Intervals): SpaceValue[] | null =>
    f.kind === 'address' ? addresses(set) : f.kind === 'int' ? numbers(set) : f.kind === 'name' && nameText[d] !== undefined ? names(set, nameText[d]!) : null;
  for (const d of FIELD_DIMENSIONS) {
    if (equal(box[d]!, home[d]!)) continue;
    const field = fieldOf(d, transport);
    if (field?.kind === 'bool') {
      spec[field.name] = box[d]![0] === 1n;
      continue;
    }
    const values = field === undefined ? null : write(field, d, box[d]!);
    if (values === null) return null;
    spec[field!.name] = values;
  }
  if (spec['ip.src'] === undefined && spec['ip.dst'] === undefined) spec['ip.src'] = [family6 ? '::/0' : '0.0.0.0/0'];
  if (transport !== undefined && spec['ip.proto'] === undefined) spec['ip.proto'] = transport;
  if (l4[0] === L4.icmp && spec['ip.proto'] === undefined) spec['ip.proto'] = family6 ? 'ipv6-icmp' : 'icmp';
  return spec;
}
