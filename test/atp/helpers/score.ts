// Ground-truth scoring of a run, computed from the decisions alone (independently of the engine's
// own report), for the evidence scenarios.
import type { Pkt, Seen } from './traffic.js';

const CHALLENGE = new Set(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED']);

export interface Score {
  attack: number;
  attackStopped: number;
  legitFlows: number;
  legitFlowsComplete: number;
  legitDropped: number;
}

/**
 * `world`: 'actual' scores drops; 'would' scores monitoring notes as drops. A legitimate flow is
 * complete when none of its packets was stopped except by a SYN challenge it then passed.
 */
export function score(packets: Pkt[], seen: Seen[], world: 'actual' | 'would' = 'actual'): Score {
  const s: Score = { attack: 0, attackStopped: 0, legitFlows: 0, legitFlowsComplete: 0, legitDropped: 0 };
  const flows = new Map<number, { harmed: boolean; pending: boolean }>();
  packets.forEach((p, i) => {
    if (p.egress) return;
    const x = seen[i];
    const reason = world === 'actual' ? x.reason : x.monitor === null ? null : x.monitor.split(':')[1];
    if (p.label === 'attack') {
      s.attack++;
      if (reason !== null) s.attackStopped++;
      return;
    }
    if (p.flow === undefined) return;
    if (reason !== null) s.legitDropped++;
    const f = flows.get(p.flow) ?? { harmed: false, pending: false };
    if (reason === null || reason === 'CHALLENGE_PASSED') f.pending = false;
    else if (reason === 'CHALLENGE_NEEDED') f.pending = true;
    else if (!CHALLENGE.has(reason)) f.harmed = true;
    flows.set(p.flow, f);
  });
  for (const f of flows.values()) {
    s.legitFlows++;
    if (!f.harmed && !f.pending) s.legitFlowsComplete++;
  }
  return s;
}
