// One comparison's meaning (src/analysis/atoms.ts), as a user sees it through lint and explain: which
// packets a rule decides (a later rule matching only those is never reached; one matching a packet
// beside them is), bounds included or not, IPv6 addresses, prefixes and ranges, lists of both families,
// the packets a comparison the analysis cannot model may match, and the notes' wording.
import { describe, expect, it } from 'vitest';
import { explain, lint } from '../../src/analysis/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { type ComparisonExpr, FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { comparisonMeaning } from '../../src/analysis/atoms.js';
import { range } from '../../src/analysis/intervals.js';
import { NameTables } from '../../src/analysis/names.js';
import { ABSENT, Dim, projection, universe } from '../../src/analysis/space.js';
import { replayer, snapshotOf } from './replay.js';

type Lists = Snapshot['lists'];

const block = (...expressions: string[]): Snapshot => snapshotOf(expressions.map((expression) => ({ action: 'block' as const, expression, enabled: true })));

/** What explain says of `probe` placed after `rule`: every packet it matches decided by `rule`, or not. */
function after(rule: string, probe: string, lists?: Lists): string {
  const s = { ...block(rule, probe), lists };
  const e = explain(s, 'r2');
  // a reachable probe's witness is a packet the real firewall gives to the probe, not to the rule
  if (e.status === 'reachable') expect(replayer(s)(e.witness!).rule).toBe('r2');
  return e.status;
}

/** Every probe's packets decided by `rule`: each is never reached after it. */
function decides(rule: string, probes: string[], lists?: Lists): void {
  for (const probe of probes) expect(`${probe}: ${after(rule, probe, lists)}`).toBe(`${probe}: unreachable`);
}

/** No probe's packets all decided by `rule`: each stays reachable after it. */
function leaves(rule: string, probes: string[], lists?: Lists): void {
  for (const probe of probes) expect(`${probe}: ${after(rule, probe, lists)}`).toBe(`${probe}: reachable`);
}

/** lint's notes and findings for one rule, as `kind: message`. */
const findings = (expression: string, lists?: Lists): string[] => lint({ ...block(expression), lists }).map((f) => `${f.kind}: ${f.message}`);

describe('a comparison on an integer field', () => {
  it('decides exactly the values each ordering operator holds for, bounds included or not', () => {
    decides('tcp.dstport < 10', ['tcp.dstport == 0', 'tcp.dstport == 9']);
    leaves('tcp.dstport < 10', ['tcp.dstport == 10']);
    decides('tcp.dstport <= 10', ['tcp.dstport == 0', 'tcp.dstport == 10']);
    leaves('tcp.dstport <= 10', ['tcp.dstport == 11']);
    decides('tcp.dstport > 10', ['tcp.dstport == 11', 'tcp.dstport == 65535']);
    leaves('tcp.dstport > 10', ['tcp.dstport == 10']);
    decides('tcp.dstport >= 10', ['tcp.dstport == 10', 'tcp.dstport == 65535']);
    leaves('tcp.dstport >= 10', ['tcp.dstport == 9']);
    // next to the field's own bounds
    decides('tcp.dstport < 65534', ['tcp.dstport == 65533']);
    leaves('tcp.dstport < 65534', ['tcp.dstport == 65534', 'tcp.dstport == 65535']);
    decides('tcp.dstport > 1', ['tcp.dstport == 2']);
    leaves('tcp.dstport > 1', ['tcp.dstport == 1', 'tcp.dstport == 0']);
    decides('tcp.dstport == 0', ['tcp.dstport == 0']);
    leaves('tcp.dstport == 0', ['tcp.dstport == 1']);
    decides('tcp.dstport == 65535', ['tcp.dstport == 65535']);
    leaves('tcp.dstport == 65535', ['tcp.dstport == 65534']);
    // a comparison on the field's bound matches packets: lint says nothing of it
    for (const fine of ['tcp.dstport == 0', 'tcp.dstport == 65535', 'tcp.dstport <= 0', 'tcp.dstport >= 65535']) expect(findings(fine)).toEqual([]);
  });

  it('decides the values with a masked bit on a field of at most 16 bits', () => {
    decides('tcp.dstport & 1', ['tcp.dstport == 1', 'tcp.dstport == 65535', 'tcp.dstport in {3 5 7}']);
    leaves('tcp.dstport & 1', ['tcp.dstport == 0', 'tcp.dstport == 2', 'tcp.dstport == 65534']);
  });

  it('notes a value outside the field, saying whether == is never or != always true, and an ordering no value holds', () => {
    expect(findings('ip.ttl == 300')).toEqual(['impossible_comparison: ip.ttl: 300 is outside 0–255; `==` is never true', 'unmatchable: r1 matches no packet']);
    expect(findings('ip.ttl != 300')).toEqual(['impossible_comparison: ip.ttl: 300 is outside 0–255; `!=` is always true']);
    expect(findings('ip.ttl > 255')).toEqual(['impossible_comparison: ip.ttl: no value in 0–255 is gt 255', 'unmatchable: r1 matches no packet']);
    expect(findings('ip.ttl < 0')).toEqual(['impossible_comparison: ip.ttl: no value in 0–255 is lt 0', 'unmatchable: r1 matches no packet']);
    for (const fine of ['ip.ttl == 0', 'ip.ttl == 255', 'ip.ttl < 1', 'ip.ttl > 254', 'ip.ttl in {0 255}']) expect(findings(fine)).toEqual([]);
  });

  it('notes the members of a set outside the field, ranges as a..b, and decides the members inside', () => {
    expect(findings('ip.ttl in {10 300 400..500}')).toEqual(['impossible_comparison: ip.ttl: 300, 400..500 outside 0–255 never match']);
    decides('ip.ttl in {10 300 400..500}', ['ip.ttl == 10']);
    leaves('ip.ttl in {10 300 400..500}', ['ip.ttl == 11', 'ip.ttl == 255']);
  });
});

describe('a comparison on an address field', () => {
  it('places IPv6 addresses, prefixes of any length and ranges on the address axis', () => {
    decides('ip.src == 2001:db8::1', ['ip.src == 2001:db8::1']);
    leaves('ip.src == 2001:db8::1', ['ip.src == 2001:db8::2', 'ip.src == 2001:db8::', 'ip.src == 10.0.0.1']);
    decides('ip.src in {2001:db8::/32}', ['ip.src == 2001:db8::', 'ip.src == 2001:db8:ffff:ffff:ffff:ffff:ffff:ffff']);
    leaves('ip.src in {2001:db8::/32}', ['ip.src == 2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'ip.src == 2001:db9::']);
    // a prefix longer than 95 bits, whose host part fits in the low word
    decides('ip.src in {2001:db8::100/120}', ['ip.src == 2001:db8::100', 'ip.src == 2001:db8::1ff']);
    leaves('ip.src in {2001:db8::100/120}', ['ip.src == 2001:db8::ff', 'ip.src == 2001:db8::200']);
    decides('ip.src in {2001:db8::1/128}', ['ip.src == 2001:db8::1']);
    leaves('ip.src in {2001:db8::1/128}', ['ip.src == 2001:db8::', 'ip.src == 2001:db8::2']);
    decides('ip.src > 2001:db8::1', ['ip.src == 2001:db8::2', 'ip.src == ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']);
    leaves('ip.src > 2001:db8::1', ['ip.src == 2001:db8::1', 'ip.src == 255.255.255.255']);
    decides('ip.src in {10.0.0.1..10.0.0.5}', ['ip.src == 10.0.0.1', 'ip.src == 10.0.0.5']);
    leaves('ip.src in {10.0.0.1..10.0.0.5}', ['ip.src == 10.0.0.0', 'ip.src == 10.0.0.6']);
  });

  it('names an unknown list and an empty one; a list of addresses decides them', () => {
    expect(findings('ip.src in $nowhere')).toEqual(['unknown_list: list $nowhere does not exist', 'indeterminate: r1: parts the analysis does not model (regular expressions, byte strings, functions, unknown lists) decide whether it is reached']);
    const empty: Lists = [{ name: 'empty', kind: 'ip', items: [] }];
    expect(findings('ip.src in $empty', empty)).toEqual(['empty_list: list $empty is empty: `in $empty` never matches', 'unmatchable: r1 matches no packet']);
    const few: Lists = [{ name: 'few', kind: 'ip', items: [{ ip: '10.0.0.5/32' }, { ip: '10.0.0.8/31' }] }];
    expect(findings('ip.src in $few', few)).toEqual([]);
    decides('ip.src in $few', ['ip.src in {10.0.0.5 10.0.0.8 10.0.0.9}'], few);
    leaves('ip.src in $few', ['ip.src == 10.0.0.6', 'ip.src == 10.0.0.10'], few);
  });

  it('reads a list of both families onto the address axis', () => {
    const both: Lists = [{ name: 'both', kind: 'ip', items: [{ ip: '10.0.0.0/8' }, { ip: '2001:db8::/120' }] }];
    decides('ip.src in $both', ['ip.src == 10.255.255.255', 'ip.src == 2001:db8::', 'ip.src == 2001:db8::ff'], both);
    leaves('ip.src in $both', ['ip.src == 11.0.0.0', 'ip.src == 2001:db8::100', 'ip.src == ::a00:0'], both);
  });
});

describe('a comparison the analysis does not model', () => {
  const indeterminateAfter = (rule: string, probe: string): string => after(rule, probe);

  it('may match only the packets that have the field, or every packet for !=', () => {
    // `tcp contains` may match TCP packets only: a UDP rule after it is reached, a TCP one may not be
    expect(indeterminateAfter('tcp contains "abc"', 'udp.dstport == 53')).toBe('reachable');
    expect(indeterminateAfter('tcp contains "abc"', 'tcp.dstport == 22')).toBe('indeterminate');
    // `tcp != "abc"` also matches every packet without a TCP header
    expect(indeterminateAfter('tcp != "abc"', 'udp.dstport == 53')).toBe('indeterminate');
    // an ASN masked: only packets with an AS number (an IP source with no AS number stays reachable)
    expect(indeterminateAfter('ip.src.asnum & 1', 'ip.src.asnum == 13335')).toBe('indeterminate');
    expect(indeterminateAfter('ip.src.asnum & 1', 'ip.src == 10.0.0.1')).toBe('reachable');
    // a function of the packet may match any packet
    expect(indeterminateAfter('bit_slice(tcp, 104, 112) == 2', 'udp.dstport == 53')).toBe('indeterminate');
    // ordering on text: any data center
    expect(indeterminateAfter('cf.colo.name > "sfo06"', 'cf.colo.name == "sfo06"')).toBe('indeterminate');
    // a country pattern may match any country code, but not a packet without a country (ip.src.country)
    expect(indeterminateAfter('ip.src.country matches "^U"', 'ip.src.country == "US"')).toBe('indeterminate');
  });

  it('a TCP flag is a TCP packet\'s: a UDP rule after one is not overlapped by it', () => {
    const e = explain(block('tcp.flags.syn', 'udp.dstport == 53'), 'r2');
    expect(e.status).toBe('reachable');
    expect(e.overlaps).toEqual([]);
    expect(explain(block('tcp.flags.syn', 'tcp.dstport == 53'), 'r2').overlaps).toEqual([expect.objectContaining({ rule: 'r1', covers: false })]);
  });

  // what lint and explain cannot show: ip.geoip.country (either address's country) may also match a
  // packet whose source has no country (-1; 0 stands for every code, none being named), which no
  // modelled rule isolates: a rule cannot name "no country" apart from the codes it does not name
  it('a country of either address may match packets without a source country', () => {
    const expr = parse('ip.geoip.country matches "^U"', FIREWALL_SCHEME).expr as ComparisonExpr;
    const names = new NameTables([expr]);
    const U = universe(names.domains);
    const m = comparisonMeaning(expr, { universe: U, names, lists: () => undefined, notes: [] });
    expect(projection(m.may, Dim.srcCountry)).toEqual(range(ABSENT, 0n));
  });
});

describe('notes', () => {
  it('name the transport a negated protocol field leaves out', () => {
    expect(findings('tcp.dstport != 22')).toEqual(['negated_protocol_field: `tcp.dstport != …` also matches every packet without a TCP header; the rule matches such packets']);
    expect(findings('udp.dstport != 53')).toEqual(['negated_protocol_field: `udp.dstport != …` also matches every packet without a UDP header; the rule matches such packets']);
    expect(findings('ip.src != 10.0.0.1')).toEqual([]);
    expect(findings('icmp.type != 8')).toEqual(['negated_protocol_field: `icmp.type != …` also matches every packet without an ICMP header; the rule matches such packets']);
  });

  it('name a data center or region no packet carries', () => {
    expect(findings('cf.colo.name == "nowhere"')).toEqual(['impossible_comparison: cf.colo.name: no data center is named "nowhere"', 'unmatchable: r1 matches no packet']);
    expect(findings('cf.colo.region == "NOWHERE"')).toEqual(['impossible_comparison: cf.colo.region: no data-center region is named "NOWHERE"', 'unmatchable: r1 matches no packet']);
  });
});
