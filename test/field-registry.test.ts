// A field is defined once: every stage knows every field of the registry, with the registry's type,
// so a field added to the registry but not wired into a stage fails here, naming the field and the stage.
import { describe, expect, it } from 'vitest';
import { expressionMeaning, isExact } from '../src/analysis/expression.js';
import { headerSpace } from '../src/analysis/model.js';
import { Constants, writeCondition } from '../src/fastpath/conditions.js';
import { HEADER_LOCALS } from '../src/fastpath/headers.js';
import { decodeFrame } from '../src/capture/reader.js';
import { PacketRecord } from '../src/capture/record.js';
import { FIELD_REGISTRY, fieldType, lookupOf, type FieldEntry, type FieldPart } from '../src/field-registry.js';
import { recordBinding } from '../src/fields/binding.js';
import { LOOKUP_FIELDS } from '../src/fields/lookups.js';
import { FIELD_REFERENCE } from '../src/fields/reference.js';
import { fieldReader } from '../src/fields/render.js';
import { displayType, FILTER_SCHEME, FIREWALL_SCHEME, parse } from '../src/lang/index.js';
import { packetSpec } from '../src/lib/packet.js';
import { ethernet, icmp, ipv4, ipv6, tcp, udp } from './capture/helpers/build.js';

/** what the suites' packet builder expects of a value of each type */
const EXPECTED_VALUE = { Ip: /an address/, Int: /a whole number/, Bool: /true or false/, Bytes: /a string|bytes written/ } as const;

/** the suites' error for a packet giving the field no value, or null when it builds */
function packetError(name: string): string | null {
  try {
    packetSpec({ [name]: null as unknown as string });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** a comparison of the field with a value of its type */
const COMPARISON = { Ip: '== 192.0.2.1', Int: '== 1', Bool: '', Bytes: 'contains "a"' } as const;

/** the analysis' meaning of `field == value` (of a flag: the flag) is exact when it models the field */
function modelledExactly(f: FieldEntry): boolean {
  const ast = parse(`${f.name} ${f.kind === 'name' ? '== "a"' : COMPARISON[fieldType(f)]}`.trim(), FIREWALL_SCHEME);
  const space = headerSpace([ast.expr]);
  return isExact(expressionMeaning(ast.expr, { universe: space.universe, names: space.names, lists: () => undefined, notes: [] }));
}

/** the problems of each stage with a field: `stage: problem`, empty when every stage knows it */
type Stage = (field: FieldEntry) => string | null;

const STAGES: Record<string, Stage> = {
  scheme: (f) => {
    const def = FIREWALL_SCHEME.field(f.name);
    return def === undefined ? 'unknown' : displayType(def.type) !== fieldType(f) ? `type ${displayType(def.type)}` : null;
  },
  'ATP filters': (f) => ((FILTER_SCHEME.field(f.name) !== undefined) !== (f.inFilters === true) ? 'disagrees on inFilters' : null),
  reference: (f) => {
    const ref = FIELD_REFERENCE.find((r) => r.name === f.name);
    return ref === undefined ? 'unknown' : ref.type !== fieldType(f) ? `type ${ref.type}` : null;
  },
  // a field standing for others is derived by the language from theirs
  binding: (f) => {
    const access = Object.hasOwn(recordBinding, f.name) ? recordBinding[f.name] : undefined;
    if (f.kind === 'name' && f.anyOf !== undefined) return access === undefined ? null : 'binds a derived field';
    return access === undefined ? 'unknown' : access.type !== fieldType(f) ? `type ${access.type}` : null;
  },
  render: (f) => (f.kind === 'name' && f.anyOf !== undefined) || fieldReader(f.name)?.type === fieldType(f) ? null : 'no reader of the type',
  'packet builder': (f) => {
    const error = packetError(f.name);
    return error !== null && EXPECTED_VALUE[fieldType(f)].test(error) ? null : `says ${error}`;
  },
  'fast path': (f) => {
    const c = writeCondition(parse(`${f.name} ${COMPARISON[fieldType(f)]}`.trim(), FIREWALL_SCHEME), undefined, new Constants(), 0);
    if ('notCompiled' in c) return c.notCompiled;
    // the prologue's locals, or the frame's lookup record
    const unread = [...c.locals].filter((l) => !(HEADER_LOCALS as readonly string[]).includes(l) && l !== 'lookup');
    return unread.length === 0 ? null : `reads ${unread.join(', ')}, which the prologue does not set`;
  },
  // raw bytes are not modelled: every comparison on them is indeterminate
  analysis: (f) => (f.kind === 'raw' || modelledExactly(f) ? null : 'not modelled'),
  lookups: (f) => (LOOKUP_FIELDS.has(f.name) !== (lookupOf(f) !== undefined) ? 'disagrees on looking it up' : null),
};

/** decoded packets and the parts of a packet each has (no lookups: they are not in the bytes) */
function decoded(frame: Uint8Array): PacketRecord {
  const rec = new PacketRecord();
  decodeFrame(rec, 1, frame, frame.length);
  return rec;
}
const PACKETS: ReadonlyArray<[string, PacketRecord, readonly FieldPart[]]> = [
  ['IPv4 TCP with options', decoded(ethernet(0x0800, ipv4({ proto: 6, options: [0x94, 4, 0, 0] }, tcp(40000, 443, 0x12)))), ['ip', 'ipv4', 'ipv4-options', 'tcp']],
  ['IPv4 ICMP', decoded(ethernet(0x0800, ipv4({ proto: 1 }, icmp(8, 0)))), ['ip', 'ipv4', 'icmp']],
  ['IPv6 UDP', decoded(ethernet(0x86dd, ipv6({ next: 17 }, udp(5060, 53)))), ['ip', 'udp']],
  ['ARP', decoded(ethernet(0x0806, new Uint8Array(28))), []],
];

describe('the field registry', () => {
  it('names each field once', () => {
    const names = FIELD_REGISTRY.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('is every stage\'s list of fields', () => {
    const problems = FIELD_REGISTRY.flatMap((f) => Object.entries(STAGES).flatMap(([stage, check]) => {
      let problem: string | null;
      try {
        problem = check(f);
      } catch (err) {
        problem = `throws ${String(err)}`;
      }
      return problem === null ? [] : [`${f.name}: ${stage}: ${problem}`];
    }));
    expect(problems).toEqual([]);
  });

  it("is the binding's presence: a packet has a field exactly when it has the field's part", () => {
    const wrong = PACKETS.flatMap(([packet, rec, parts]) => FIELD_REGISTRY.flatMap((f) => {
      const access = Object.hasOwn(recordBinding, f.name) ? recordBinding[f.name]! : undefined;
      return access === undefined || access.has(rec) === parts.includes(f.part) ? [] : [`${f.name}: ${packet}: ${access.has(rec) ? 'present' : 'absent'}`];
    }));
    expect(wrong).toEqual([]);
  });

  it('has no field a stage knows and it does not', () => {
    const known = new Set(FIELD_REGISTRY.map((f) => f.name));
    const extra = (stage: string, names: Iterable<string>): string[] => [...names].filter((n) => !known.has(n)).map((n) => `${n}: ${stage}`);
    expect([...extra('scheme', FIREWALL_SCHEME.fieldNames()), ...extra('binding', Object.keys(recordBinding)), ...extra('lookups', LOOKUP_FIELDS)]).toEqual([]);
  });
});
