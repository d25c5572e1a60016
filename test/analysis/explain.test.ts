// explain (edgesim lint --explain REF): the enabled earlier rules that share packets with a rule,
// whether each covers it, certainly or possibly, with a packet both match; the rule's own status
// with a packet (reachable: one it decides; unreachable: one it matches); an unknown ref refused.
import { describe, expect, it } from 'vitest';
import { explain } from '../../src/analysis/index.js';
import { UserError } from '../../src/errors.js';
import { replayer, snapshotOf } from './replay.js';

const one = (action: 'block' | 'skip' | 'log', expression: string, enabled = true) => ({ action, expression, enabled });

describe('explain', () => {
  const s = snapshotOf([
    one('block', 'tcp.dstport in {22 23}'),
    one('block', 'tcp.dstport == 22', false),
    one('block', 'udp.dstport == 53'),
    one('skip', 'tcp contains "x"'),
    one('log', 'tcp.dstport == 22'),
    one('block', 'tcp.dstport == 22 and tcp.flags.syn'),
    one('block', 'tcp.dstport == 22 and udp.dstport == 22'),
  ]);

  it('lists only enabled earlier rules that share packets, certain or possible, each with a packet both match', () => {
    const e = explain(s, 'r6');
    expect(e).toMatchObject({ ruleset: 'rs', rule: 'r6', action: 'block', status: 'unreachable' });
    expect(e.overlaps.map(({ rule, action, covers, certain }) => ({ rule, action, covers, certain }))).toEqual([
      { rule: 'r1', action: 'block', covers: true, certain: true },
      { rule: 'r4', action: 'skip', covers: false, certain: false },
      { rule: 'r5', action: 'log', covers: true, certain: true },
    ]);
    const replay = replayer(s);
    expect(replay(e.overlaps[0]!.witness!).matched).toEqual(expect.arrayContaining(['r1']));
    // unreachable: a packet it matches, decided earlier
    expect(e.witness).toMatchObject({ 'tcp.dstport': 22 });
    expect(replay(e.witness!).rule).toBe('r1');
  });

  it('a reachable rule has a packet it decides; a disabled or unmatchable one none', () => {
    const e = explain(s, 'r3');
    expect(e).toMatchObject({ status: 'reachable', overlaps: [] });
    expect(replayer(s)(e.witness!).rule).toBe('r3');
    expect(explain(s, 'r2')).toMatchObject({ status: 'disabled', witness: null });
    expect(explain(s, 'r7')).toMatchObject({ status: 'unmatchable', witness: null, overlaps: [] });
  });

  it('refuses a ref no rule has, listing the refs', () => {
    expect(() => explain(s, 'r9')).toThrow(UserError);
    expect(() => explain(s, 'r9')).toThrow('no rule r9 (rules: r1, r2, r3, r4, r5, r6, r7)');
    expect(() => explain(s, 'r9')).toThrow(expect.objectContaining({ source: '--explain' }));
  });
});
