// The one label scoring (atp/outcomes.ts), used by ATP's report and by the replay's whole-path
// report: a challenge passed costs a round trip, not the flow; a drop by another stage (the
// firewall) harms the flow; a monitoring note harms it only in the would-be world; and "flows with a
// dropped packet" counts a challenged SYN even when the client then passed.
import { describe, expect, it } from 'vitest';
import { Outcome, Outcomes, type AtpLabels } from '../../src/atp/index.js';
import { Reason } from '../../src/atp/vocabulary.js';

function labels(rows: Array<[frame: number, label: 'legit' | 'attack', flow: number | null]>): AtpLabels {
  const byFrame = new Map(rows.map(([f, l, flow]) => [f, { l, flow }]));
  return { label: (f) => byFrame.get(f)?.l ?? null, flow: (f) => byFrame.get(f)?.flow ?? null };
}

describe('label scoring', () => {
  it('scores challenges, firewall drops and monitoring notes by flow', () => {
    const o = new Outcomes();
    const codes = [
      Outcome.DROP + Reason.CHALLENGE_NEEDED, // 1: flow 1's SYN challenged
      Outcome.DROP + Reason.CHALLENGE_PASSED, // 2: flow 1 answers
      Outcome.PASS, // 3: flow 1 goes on
      Outcome.PASS, // 4: flow 2
      Outcome.DROP_OTHER, // 5: flow 2 dropped by the firewall
      Outcome.FLAG + Reason.NOT_FOUND, // 6: flow 3 noted by monitoring
      Outcome.DROP_OTHER, // 7: attack dropped by the firewall
      Outcome.DROP + Reason.CHALLENGE_NEEDED, // 8: flow 4 challenged, never answers
    ];
    codes.forEach((c, k) => o.record(k + 1, c));
    const score = o.score(
      labels([[1, 'legit', 1], [2, 'legit', 1], [3, 'legit', 1], [4, 'legit', 2], [5, 'legit', 2], [6, 'legit', 3], [7, 'attack', null], [8, 'legit', 4]]),
    );
    expect(score).toEqual({
      attackPackets: 1,
      attackDropped: 1,
      attackFlagged: 0,
      legitPackets: 7,
      legitDropped: 4,
      legitFlagged: 1,
      legitFlows: 4,
      legitFlowsChallenged: 2,
      legitFlowsHarmed: 2, // flow 2 (firewall) and flow 4 (challenge never passed)
      legitFlowsWouldBeHarmed: 3, // and flow 3 (the note)
      legitFlowsDropped: 3, // flows 1, 2 and 4
      unrecorded: 0,
    });
  });
});
