// A field is defined once: every stage knows every field of the registry, with the registry's type,
// so a field added to the registry but not wired into a stage fails here, naming the field and the stage.
import { describe, expect, it } from 'vitest';
import { expressionMeaning, isExact } from '../src/analysis/expression.js';
import { headerSpace } from '../src/analysis/model.js';
import { Constants, writeCondition } from '../src/fastpath/conditions.js';
import { HEADER_LOCALS } from '../src/fastpath/headers.js';
import { decodeFrame } from '../src/capture/reader.js';
import { PacketRecord } from '../src/capture/record.js';
import { FIELD_REGISTRY, fieldType, lookupOf, transportOf, type FieldEntry, type FieldPart } from '../src/field-registry.js';
import { decodeInto } from '../src/capture/decode/link-up.js';
import { Frame } from '../src/capture/frame.js';
import { FastFirewall } from '../src/fastpath/fast-firewall.js';
import { Firewall } from '../src/firewall/firewall.js';
import { CompiledPath } from '../src/sim/compiled-path.js';
import { decideFrame } from '../src/sim/decide-frame.js';
import { Lane } from '../src/sim/lane.js';
import { Run } from '../src/sim/run.js';
import { PacketBuilder } from '../src/suite/packet-builder.js';
import { recordBinding } from '../src/fields/binding.js';
import { LOOKUP_FIELDS } from '../src/fields/lookups.js';
import { FIELD_REFERENCE } from '../src/fields/reference.js';
import { fieldReader, recordFields } from '../src/fields/render.js';
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

// Every field read from the packet's bytes, written by the suites' builder and read back by both
// lanes, in every transport (and IP version) it belongs to: a block rule `field == value` drops the
// packet the builder wrote with that value and passes the one written with another, in the compiled
// lane (reading the field itself, not the decoded frame) and in the decoder's lane, and the decoder's
// record holds the value. The looked-up fields are not in the bytes (the packet names them and the
// builder hands them to the lookups), and the raw bytes fields are the packet itself: neither is here.
describe('the field registry, written and read back', () => {
  const TRANSPORTS = ['tcp', 'udp', 'icmp'] as const;
  const addresses = { 4: ['192.0.2.77', '192.0.2.78'], 6: ['2001:db8::77', '2001:db8::78'] } as const;
  const protoOf = (t: (typeof TRANSPORTS)[number], family: 4 | 6) => (t === 'icmp' && family === 6 ? 'ipv6-icmp' : t);

  /** a value of the field for a packet of the transport and family, and another */
  function values(f: FieldEntry, t: (typeof TRANSPORTS)[number], family: 4 | 6): [unknown, unknown] {
    switch (f.kind) {
      case 'int':
        return f.max >= 151 ? [150, 151] : [7, 8];
      case 'flag':
      case 'bool':
        return [true, false];
      case 'address':
        return [addresses[family][0], addresses[family][1]];
      case 'name':
        return [protoOf(t, family), t === 'tcp' ? 'udp' : 'tcp'];
      default:
        throw new Error(`no value for ${f.name}`);
    }
  }

  const literal = (v: unknown) => (typeof v === 'string' && !v.includes('.') && !v.includes(':') ? JSON.stringify(v) : String(v));
  const ruleFor = (f: FieldEntry, v: unknown) => (f.kind === 'flag' || f.kind === 'bool' ? f.name : `${f.name} == ${literal(v)}`);

  const cases = FIELD_REGISTRY.filter((f) => lookupOf(f) === undefined && f.kind !== 'raw').flatMap((f) => {
    const transport = transportOf(f);
    return TRANSPORTS.filter((t) => (transport === undefined ? !(f.name === 'sip' && t === 'icmp') : t === transport)).flatMap((t) =>
      ([4, 6] as const).filter((family) => family === 4 || (f.part !== 'ipv4' && f.part !== 'ipv4-options')).map((family) => ({ f, t, family })),
    );
  });

  function packet(f: FieldEntry, t: (typeof TRANSPORTS)[number], family: 4 | 6, value: unknown) {
    return { 'ip.src': addresses[family][1], 'ip.proto': protoOf(t, family), [f.name]: value };
  }

  function decide(expression: string, packetValues: Record<string, unknown>, record: boolean) {
    const firewall = Firewall.compile([{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'r', action: 'block', expression }] }], {});
    const path = new CompiledPath({ firewall, program: FastFirewall.compile(firewall, {}) });
    const run = new Run(path, { record });
    const frame = new Frame();
    new PacketBuilder().build(packetSpec(packetValues as never), frame);
    const verdict = decideFrame(frame, path, run);
    const rec = new PacketRecord();
    decodeInto(rec, frame);
    return { drop: verdict.drop, lane: verdict.lane, decoded: verdict.lane === Lane.COMPILED ? run.decodedRules() : 0, read: recordFields(rec) };
  }

  it('covers every field read from the bytes in every transport it belongs to', () => {
    expect(new Set(cases.map((c) => c.f.name)).size).toBe(FIELD_REGISTRY.filter((f) => lookupOf(f) === undefined && f.kind !== 'raw').length);
    expect(cases.filter((c) => c.f.name === 'ip.ttl').map((c) => `${c.t}/${c.family}`)).toEqual(['tcp/4', 'tcp/6', 'udp/4', 'udp/6', 'icmp/4', 'icmp/6']);
  });

  it('writes each field with the suites\' builder and reads it back through both lanes', () => {
    const wrong: string[] = [];
    for (const { f, t, family } of cases) {
      const [value, other] = values(f, t, family);
      const rule = ruleFor(f, value);
      for (const record of [false, true]) {
        const lane = record ? 'decoder' : 'compiled';
        const hit = decide(rule, packet(f, t, family, value), record);
        const miss = decide(rule, packet(f, t, family, other), record);
        const where = `${f.name} (${t}, IPv${family}, ${lane} lane)`;
        if (!hit.drop || miss.drop) wrong.push(`${where}: ${rule} ${hit.drop ? 'drops' : 'passes'} the packet written with ${String(value)}, ${miss.drop ? 'drops' : 'passes'} the one with ${String(other)}`);
        if (hit.lane !== (record ? Lane.DECODER : Lane.COMPILED) || hit.decoded !== 0) wrong.push(`${where}: decided in lane ${hit.lane}, ${hit.decoded} rules read on the decoded frame`);
        const read = hit.read[f.name];
        if ((typeof read === 'string' ? read.toLowerCase() : read) !== value) wrong.push(`${where}: the decoder reads ${String(read)}`);
        // writing the field changes no other field (a wrong place would overwrite one): only itself, its bits or
        // the field it is a bit of (a flag given sets exactly the flags given true: the default SYN goes), the raw
        // bytes, and the lengths options take
        if (record) continue;
        const plain = decide(rule, { 'ip.src': addresses[family][1], 'ip.proto': protoOf(t, family) }, record).read;
        const own = (n: string) => n === f.name || n.startsWith(`${f.name}.`) || f.name.startsWith(`${n}.`) || (f.kind === 'flag' && n.startsWith(f.name.slice(0, f.name.lastIndexOf('.') + 1))) || ['ip', 'tcp', 'udp', 'icmp', 'ip.len'].includes(n) || (f.part.startsWith('ipv4') && n.startsWith('ip.') && (n === 'ip.hdr_len' || n === 'ip.opt.type'));
        const changed = [...new Set([...Object.keys(plain), ...Object.keys(hit.read)])].filter((n) => !own(n) && plain[n] !== hit.read[n]);
        if (changed.length > 0) wrong.push(`${where}: writing it changed ${changed.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
