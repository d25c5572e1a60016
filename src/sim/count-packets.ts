// Deciding and counting each packet of a replay that writes no per-packet output: a packet the
// firewall's fast path passed with protection off is counted without its verdict being written
// (the common case, in fewer steps); any other is decided on the packet path and counted in full.
// Each packet's lane (compiled or fallback) is counted too.
import type { PacketRecord } from '../capture/record.js';
import type { PacketDecider } from './packet-decider.js';
import type { ReplaySummary } from './summary.js';

/** The visit function for a read with `decider`'s frame decoder that counts every packet into `summary`. */
export function countingVisit(decider: PacketDecider, summary: ReplaySummary): (rec: PacketRecord) => void {
  return (rec) => {
    summary.engine.add(decider);
    if (decider.passedFast()) summary.addPassed(rec);
    else summary.add(rec, decider.decide(rec));
  };
}
