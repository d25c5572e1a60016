// The frame's record on the fast path (frame-record.ts), filled once per frame on the first ask: the
// looked-up fields for rules on countries and data centers, the whole decoded frame for rules the
// fast path does not write. Rules of both kinds in one ruleset, in either order, over frames in
// memory: the fast path's matches are the firewall's on the decoded and enriched frame, and the
// engine counts name every rule read on the decoded frame, in order, for the frame just decided
// only.
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFrameAt } from '../../src/capture/decode/link-up.js';
import { decodeFrame } from '../../src/capture/reader.js';
import { PacketRecord } from '../../src/capture/record.js';
import { createEnrichment, type Enrichment } from '../../src/data/enrichment.js';
import { FastFirewall, FALLBACK, ProgramResult } from '../../src/fastpath/fast-firewall.js';
import { Firewall, FirewallResult } from '../../src/firewall/firewall.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { ascii, bytes, ethernet, ipv4, ipv6, tcp, udp } from '../capture/helpers/build.js';
import { type Rule, rulesets } from './helpers.js';

const ETHERNET = 1;
const unread = new IpSetBuilder().addPrefix4(parseIPv4('8.0.0.0'), 8).build();
const lists = (name: string) => (name === 'unread' ? unread : undefined);

/** 8.8.8.8 and 1.1.1.1 are in the bundled database's US and AU blocks; 2001:db8::1 in none */
const FRAMES = [
  ethernet(0x0800, ipv4({ src: '8.8.8.8', dst: '1.1.1.1', proto: 6 }, tcp(40000, 80, 0x02))),
  ethernet(0x0800, ipv4({ src: '1.1.1.1', dst: '8.8.8.8', proto: 17 }, udp(53, 53))),
  ethernet(0x86dd, ipv6({ src: '2001:db8::1', dst: '2001:db8::2', next: 6 }, tcp(40000, 443, 0x10))),
  ethernet(0x0800, ipv4({ src: '8.8.4.4', dst: '1.0.0.1', proto: 6 }, tcp(40000, 22, 0x12))),
];

/** rules read on the decoded frame ($unread: the fast path is compiled without it) before and after rules on looked-up fields */
const RULES: Rule[] = [
  ['src-us', 'log', 'ip.src.country == "US"'],
  ['unread-src', 'log', 'ip.src in $unread and tcp.flags.syn'],
  ['colo', 'log', 'cf.colo.region != "WNAM"'],
  ['dst-au', 'log', 'ip.dst.country in {"AU" "US"}'],
  ['unread-dst', 'log', 'ip.dst in $unread'],
  ['ssh', 'block', 'tcp.dstport == 22'],
  ['unread-late', 'log', 'ip.src in $unread or ip.dst.country == "US"'],
];

let enrichment: Enrichment;
beforeAll(async () => {
  enrichment = await createEnrichment({ need: { country: { src: true, dst: true }, colo: true } });
});

interface Decided {
  matched: number[][];
  decoded: string[][];
}

/** Each frame decided by the fast path: the rules it matched and the rules it read on the decoded frame. */
function decideAll(rules: readonly Rule[], withEnrichment: boolean): Decided & { reference: number[][] } {
  const firewall = Firewall.compile(rulesets(rules), { lists });
  const fast = FastFirewall.compile(firewall, { enrichment: withEnrichment ? enrichment : undefined });
  const rec = new PacketRecord();
  const out: Decided & { reference: number[][] } = { matched: [], decoded: [], reference: [] };
  for (const data of FRAMES) {
    const got = new ProgramResult(firewall.newCounts(), fast);
    expect(fast.decide(data, 0, data.length, data.length, ETHERNET, got)).not.toBe(FALLBACK);
    out.matched.push(Array.from(got.matched.subarray(0, got.matchedCount)));
    out.decoded.push(Array.from({ length: got.frame.decodedRules() }, (_, i) => fast.decodedReason(got.frame.decodedRule(i))));
    decodeFrame(rec, ETHERNET, data, data.length);
    if (withEnrichment) enrichment.enrich(rec);
    const want = new FirewallResult(firewall.newCounts());
    firewall.evaluate(rec, want);
    out.reference.push(Array.from(want.matched.subarray(0, want.matchedCount)));
  }
  return out;
}

const reason = (ref: string) => `rule ${ref}: field ip.${ref === 'unread-dst' ? 'dst' : 'src'}: list $unread not compiled`;

describe('the frame record: looked-up fields and decoded frames, on the first ask', () => {
  it('gives the fast path the decoded and enriched frame, and names each rule read there, in order', () => {
    const r = decideAll(RULES, true);
    expect(r.matched).toEqual(r.reference);
    // every rule reached by each frame reads it: the SSH frame is decided by `ssh` before `unread-late`
    expect(r.decoded).toEqual([
      [reason('unread-src'), reason('unread-dst'), reason('unread-late')],
      [reason('unread-src'), reason('unread-dst'), reason('unread-late')],
      [reason('unread-src'), reason('unread-dst'), reason('unread-late')],
      [reason('unread-src'), reason('unread-dst')],
    ]);
    // the lookups were made: US and AU were found
    expect(r.matched[0]).toEqual(expect.arrayContaining([0, 3]));
  });

  it('keeps the decoded frame for rules on looked-up fields after it, with or without lookups', () => {
    for (const withEnrichment of [true, false]) {
      const rules: Rule[] = [['unread-src', 'log', 'ip.src in $unread'], ['src-us', 'log', 'ip.src.country == "US"'], ['unread-dst', 'log', 'ip.dst in $unread'], ['port', 'log', 'tcp.dstport == 80']];
      const r = decideAll(rules, withEnrichment);
      expect(r.matched).toEqual(r.reference);
      expect(r.decoded).toEqual(FRAMES.map(() => [reason('unread-src'), reason('unread-dst')]));
    }
  });

  it('reads no frame a rule does not ask about, and counts none for a frame decided before those rules', () => {
    const rules: Rule[] = [['ssh', 'block', 'tcp.dstport == 22'], ['src-us', 'log', 'ip.src.country == "US"'], ['unread-dst', 'log', 'ip.dst in $unread']];
    const r = decideAll(rules, true);
    expect(r.matched).toEqual(r.reference);
    // the SSH frame comes after frames that were decoded
    expect(r.decoded).toEqual([[reason('unread-dst')], [reason('unread-dst')], [reason('unread-dst')], []]);
  });

  it('looks up the addresses of each frame when only looked-up fields are read', () => {
    const r = decideAll([['src-us', 'log', 'ip.src.country == "US"'], ['dst-au', 'log', 'ip.dst.country == "AU"']], true);
    expect(r.matched).toEqual(r.reference);
    expect(r.matched).toEqual([[0, 1], [], [], [0, 1]]);
    // without lookups the fields are absent
    const none = decideAll([['src-us', 'log', 'ip.src.country == "US"'], ['dst-au', 'log', 'ip.dst.country != "AU"']], false);
    expect(none.matched).toEqual(none.reference);
    expect(none.matched).toEqual(FRAMES.map(() => [1]));
  });

  it('decodes a frame read at an offset of a larger buffer, cut short, within its captured bytes only', () => {
    const whole = ethernet(0x0800, ipv4({ src: '8.8.8.8', dst: '1.1.1.1', proto: 6 }, tcp(40000, 80, 0x02, ascii('hello SECRET'))));
    // the bytes before the frame and its cut-off end, still in the buffer (as in the capture reader's chunk)
    const buffer = bytes([1, 2, 3, 4, 5, 6], whole);
    const [off, end] = [6, 6 + whole.length - 'SECRET'.length];
    const firewall = Firewall.compile(rulesets([['cut', 'log', 'ip.src in $unread and tcp contains "SECRET"'], ['hello', 'log', 'ip.src in $unread and tcp contains "hello"']]), { lists });
    const fast = FastFirewall.compile(firewall);
    const got = new ProgramResult(firewall.newCounts(), fast);
    expect(fast.decide(buffer, off, end, whole.length, ETHERNET, got)).toBe(4);
    expect(Array.from(got.matched.subarray(0, got.matchedCount))).toEqual([1]);
    const rec = new PacketRecord();
    decodeFrameAt(rec, ETHERNET, buffer, off, end - off, whole.length);
    const want = new FirewallResult(firewall.newCounts());
    firewall.evaluate(rec, want);
    expect(Array.from(want.matched.subarray(0, want.matchedCount))).toEqual([1]);
  });

  it('names every rule when every rule is read on the decoded frame', () => {
    const r = decideAll([['unread-src', 'log', 'ip.src in $unread'], ['unread-dst', 'log', 'ip.dst in $unread']], false);
    expect(r.matched).toEqual(r.reference);
    expect(r.decoded).toEqual(FRAMES.map(() => [reason('unread-src'), reason('unread-dst')]));
  });
});
