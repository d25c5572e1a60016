// expressionMeaning (src/analysis/expression.ts) against the real firewall: for random expressions
// (and, or, xor, not over a vocabulary dense in overlaps, unmodelled parts among them) every packet
// sampled from `must` matches the expression and none sampled from outside `may` does; the two are
// one object exactly when every part is modelled; a complement recorded for the search is exactly
// the rest of the universe. And the note a `not` over a transport field leaves, once per transport.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expressionMeaning, isExact } from '../../src/analysis/expression.js';
import { modelFirewalls, parseAt } from '../../src/analysis/model.js';
import type { Note } from '../../src/analysis/atoms.js';
import { complementOf, firstOutside, regionsOverlap, subtractRegions } from '../../src/analysis/space.js';
import { ruleStatuses } from '../../src/analysis/index.js';
import { expression, randomSource, replayer, samples, snapshotOf } from './replay.js';

const UNMODELLED = /contains|matches/;

function meaningOf(text: string) {
  const snapshot = snapshotOf([{ action: 'block', expression: text, enabled: true }]);
  const { space, firewalls } = modelFirewalls([{ snapshot }]);
  const rule = firewalls[0]!.rules[0]!;
  return { snapshot, space, meaning: rule.meaning, limit: rule.limit, ast: parseAt(text, 'rule', 'x') };
}

describe('expressionMeaning', () => {
  it('must holds only matching packets, outside may none match; exact where every part is modelled within the work limit', () => {
    let exact = 0;
    fc.assert(
      fc.property(expression, fc.integer(), (text, seed) => {
        const { snapshot, space, meaning, limit } = meaningOf(text);
        const replay = replayer(snapshot);
        const rnd = randomSource(seed);
        if (meaning.must.length > 0) for (const w of samples(meaning.must, space.names, rnd, 10)) expect(replay(w).matched, JSON.stringify(w)).toEqual(['r1']);
        const outside = subtractRegions(space.universe, meaning.may);
        if (outside.length > 0) for (const w of samples(outside, space.names, rnd, 10)) expect(replay(w).matched, JSON.stringify(w)).toEqual([]);
        // an expression whose packet classes cost more than the work limit keeps only the sound bounds (model.ts `limit`)
        if (!UNMODELLED.test(text) && limit === undefined) {
          exact++;
          expect(isExact(meaning)).toBe(true);
        }
        // must within may
        expect(firstOutside(meaning.must, [meaning.may])).toBeNull();
      }),
      { numRuns: 150 },
    );
    expect(exact).toBeGreaterThan(0);
  });

  it('a complement recorded for the search is exactly the rest of the universe', () => {
    let recorded = 0;
    fc.assert(
      fc.property(expression, (text) => {
        const { space, meaning } = meaningOf(text);
        for (const r of [meaning.must, meaning.may]) {
          const co = complementOf(r);
          if (co === undefined || r === space.universe) continue;
          recorded++;
          expect(regionsOverlap(r, co)).toBe(false);
          expect(firstOutside(space.universe, [r, co])).toBeNull();
        }
      }),
      { numRuns: 150 },
    );
    expect(recorded).toBeGreaterThan(0);
  });

  it('`not` over transport fields notes, once per transport, that it also matches packets without that header', () => {
    const notesOf = (text: string): Note[] => {
      const { space, ast } = meaningOf(text);
      const notes: Note[] = [];
      expressionMeaning(ast.expr, { universe: space.universe, names: space.names, lists: () => undefined, notes });
      return notes.filter((n) => n.kind === 'negated_protocol_field');
    };
    expect(notesOf('not (tcp.dstport == 22 and tcp.flags.syn) and not udp.srcport == 53 and not (icmp.type == 8)')).toEqual([
      { kind: 'negated_protocol_field', transport: 0n, message: '`not` over tcp.dstport also matches every packet without a TCP header (other protocols, fragments)' },
      { kind: 'negated_protocol_field', transport: 1n, message: '`not` over udp.srcport also matches every packet without a UDP header (other protocols, fragments)' },
      { kind: 'negated_protocol_field', transport: 2n, message: '`not` over icmp.type also matches every packet without an ICMP header (other protocols, fragments)' },
    ]);
    expect(notesOf('not tcp contains "x"').map((n) => n.transport)).toEqual([0n]);
    // fields of IP are no transport field
    expect(notesOf('not (ip.ttl < 5) and not ip.src in {10.0.0.0/8}')).toEqual([]);
  });
});

// A connective's complement, recorded where it is cheap, is what lets the search branch on a few
// boxes instead of cutting by many; past a size it is not built at all. Both show in what lint can
// decide within its work limit.
describe('meanings within the work limit', () => {
  const block = (expression: string) => ({ action: 'block' as const, expression, enabled: true });

  it('an allowlist written as one block rule per allowed flow: lint decides all 200 rules within the default limit', () => {
    const flows = Array.from({ length: 200 }, (_, k) => block(`ip.src != 10.0.${k >> 8}.${k & 255} or ip.dst != 192.0.2.${k % 250} or tcp.dstport != ${1000 + k}`));
    const statuses = ruleStatuses(snapshotOf(flows)).map((s) => s.status.kind);
    // r1 blocks all but flow 1, r2 blocks flow 1: nothing is left for r3 onwards
    expect(statuses).toEqual(['reachable', 'reachable', ...Array<string>(198).fill('unreachable')]);
  });

  it('the same mistake with two flows per rule, SSH from a site and DNS to it: lint decides all 200 rules within the default limit', () => {
    const sites = Array.from({ length: 200 }, (_, k) =>
      block(`(ip.src != 10.0.${k >> 8}.${k & 255} or tcp.dstport != 22) and (ip.dst != 192.0.${k >> 8}.${k & 255} or udp.dstport != 53)`),
    );
    const statuses = ruleStatuses(snapshotOf(sites)).map((s) => s.status.kind);
    expect(statuses).toEqual(['reachable', 'reachable', ...Array<string>(198).fill('unreachable')]);
  });

  it('a port range after one block rule per port (64 rules): lint decides it within the default limit, never reached', () => {
    const ports = Array.from({ length: 64 }, (_, k) => block(`tcp.dstport == ${k + 1}`));
    const statuses = ruleStatuses(snapshotOf([...ports, block('tcp.dstport in {1..64}'), block('tcp.dstport in {1..65}')])).map((s) => s.status.kind);
    expect(statuses).toEqual([...Array<string>(64).fill('reachable'), 'unreachable', 'reachable']);
  });

  it('a rule naming 100 flows from one source, one packet length each, is modelled within the default limit', () => {
    // its region is indexed by the field whose ranges spread widest (here ip.len): indexed by another,
    // each part's union meets every box before it, and the rule no longer fits the limit
    const flows = Array.from({ length: 100 }, (_, k) => `(ip.src == 1.0.0.3 and ip.len == ${k})`);
    expect(ruleStatuses(snapshotOf([block(flows.join(' or '))])).map((r) => r.status.kind)).toEqual(['reachable']);
  });

  // An allowlist too long for one expression, split over six skip rules, then a block rule that
  // repeats the last one's entries: each of its boxes is looked up in every earlier rule's region
  // through that region's index, which finds the one or two boxes that meet it. Indexed by a field
  // that does not tell the entries apart, or with too narrow a width (so most entries are
  // candidates for every query), each lookup returns a whole rule, and the 64 lookups no longer fit.
  const allowlist = (order: (k: number) => number) => {
    // every fourth entry a single host, the rest /24 subnets; entry k of 384 goes to rule k mod 6
    const entry = (k: number) =>
      ((k / 6) | 0) % 4 === 3 ? `(ip.src == 10.${k >> 8}.${k & 255}.1 and tcp.dstport == 443)` : `(ip.src in {10.${k >> 8}.${k & 255}.0/24} and tcp.dstport == 443)`;
    const part = (j: number) => Array.from({ length: 64 }, (_, i) => entry(order(i * 6 + j))).join(' or ');
    return snapshotOf([...Array.from({ length: 6 }, (_, j) => ({ action: 'skip' as const, expression: part(j), enabled: true })), block(part(5))]);
  };

  it('an allowlist of 384 subnets and hosts over six rules, and a rule repeating the last: lint finds it never reached within the default limit', () => {
    for (const order of [(k: number) => k, (k: number) => 383 - k]) {
      expect(ruleStatuses(allowlist(order)).map((r) => r.status.kind)).toEqual([...Array<string>(6).fill('reachable'), 'unreachable']);
    }
  });

  // One host's outbound allowlist (48 destinations, eight services) split over six rules, then a
  // rule repeating the last: every entry has the same source, so the regions are indexed by
  // destination; indexed by source, every lookup returns a whole rule.
  it("one host's outbound allowlist of 288 flows over six rules, and a rule repeating the last: lint finds it never reached within the default limit", () => {
    const services = [22, 25, 53, 80, 110, 143, 443, 8443];
    const entry = (k: number) => `(ip.src == 10.0.0.5 and ip.dst == 192.0.${k >> 2}.${k & 3} and tcp.dstport == ${services[k % 8]})`;
    const part = (j: number) => Array.from({ length: 48 }, (_, i) => entry(i * 6 + j)).join(' or ');
    const s = snapshotOf([...Array.from({ length: 6 }, (_, j) => ({ action: 'skip' as const, expression: part(j), enabled: true })), block(part(5))]);
    expect(ruleStatuses(s).map((r) => r.status.kind)).toEqual([...Array<string>(6).fill('reachable'), 'unreachable']);
  });

  it('a skip rule naming 16 flows (source, destination and port each) is modelled within the default limit', () => {
    const flows = Array.from({ length: 16 }, (_, k) => `(ip.src == 10.0.0.${k + 1} and ip.dst == 192.0.2.${k + 1} and tcp.dstport == ${1000 + k})`);
    const s = snapshotOf([{ action: 'skip', expression: flows.join(' or '), enabled: true }, block('ip.src in {10.0.0.0/8}')]);
    expect(ruleStatuses(s).map((r) => r.status.kind)).toEqual(['reachable', 'reachable']);
  });
});
