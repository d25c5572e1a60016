// The fast path as the language's third back end: the conformance table's firewall-scheme rows
// (test/lang/firewall-rows.ts, which the compiled predicate and the interpreter run) on packets built
// with each row's values by the suites' packet builder, each row's expression one block rule. A row
// whose expression reads only fields the row gives (and no looked-up field, which comes from GeoIP
// rather than the bytes) is realised exactly, so the fast path must give the row's expected result;
// every row the builder can make and the fast path reads must give the reference path's result on
// the same frame.
import { describe, expect, it } from 'vitest';
import { decodeInto } from '../../src/capture/decode/link-up.js';
import { Frame } from '../../src/capture/frame.js';
import { PacketRecord } from '../../src/capture/record.js';
import { FastFirewall, FALLBACK, ProgramResult } from '../../src/fastpath/fast-firewall.js';
import { LOOKUP_FIELDS } from '../../src/fields/lookups.js';
import { Firewall, FirewallResult } from '../../src/firewall/firewall.js';
import { FIREWALL_SCHEME } from '../../src/lang/index.js';
import { packetSpec, type Packet } from '../../src/lib/packet.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { CONFORMANCE_LISTS, FIREWALL_ROWS, type Row } from '../lang/firewall-rows.js';
import { rulesets } from './helpers.js';

const FIELD_NAMES = new Set(FIREWALL_SCHEME.fieldNames());
const lists = (name: string) => CONFORMANCE_LISTS.get(name);

/** The field names an expression's text mentions outside its strings. */
function fieldsRead(expr: string): string[] {
  return (expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/[a-z_][a-z0-9_.]*/g) ?? []).filter((t) => FIELD_NAMES.has(t));
}

/** A row's values as a suite writes a packet (bytes as inspect writes them). */
function suitePacket(values: Record<string, unknown>): Packet {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v instanceof Uint8Array ? [...v].map((b) => b.toString(16).padStart(2, '0')).join(':') : v])) as Packet;
}

interface Outcome {
  row: Row;
  realised: boolean;
  fast: boolean;
  reference: boolean;
}

/** A row decided by the fast path and by the reference path; null where the builder cannot make its packet or the fast path hands the frame to the decoder (a truncated header given as bytes). */
function decide(row: Row): Outcome | null {
  const [expr, values] = row;
  const frame = new Frame();
  try {
    new PacketBuilder().build(packetSpec(suitePacket(values)), frame);
  } catch {
    return null;
  }
  const firewall = Firewall.compile(rulesets([['row', 'block', expr]]), { lists });
  const fast = FastFirewall.compile(firewall, { lists });
  const fastOut = new ProgramResult(firewall.newCounts(), fast);
  const version = fast.decide(frame.data, frame.off, frame.off + frame.capLen, frame.origLen, frame.linkType, fastOut);
  if (version === FALLBACK) return null;
  const rec = new PacketRecord();
  decodeInto(rec, frame);
  const refOut = new FirewallResult(firewall.newCounts());
  firewall.evaluate(rec, refOut);
  const read = fieldsRead(expr);
  const realised = read.every((f) => f in values && !LOOKUP_FIELDS.has(f));
  return { row, realised, fast: fastOut.drop, reference: refOut.drop };
}

describe('the fast path on the conformance table', () => {
  const outcomes = FIREWALL_ROWS.map(decide);
  const built = outcomes.filter((o): o is Outcome => o !== null);

  it('builds most rows, and realises enough of them exactly to test the fast path', () => {
    expect(built.length).toBeGreaterThanOrEqual(36);
    expect(built.filter((o) => o.realised).length).toBeGreaterThanOrEqual(23);
  });

  it.each(built.filter((o) => o.realised).map((o) => [`${o.row[0]} with ${JSON.stringify(suitePacket(o.row[1]))}`, o] as const))('realised: %s', (_, o) => {
    expect(o.fast).toBe(o.row[2]);
  });

  it.each(built.map((o) => [o.row[0], o] as const))('same as the reference path: %s', (_, o) => {
    expect(o.fast).toBe(o.reference);
  });
});
