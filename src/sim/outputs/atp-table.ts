// The Advanced TCP Protection part of the replay summary: per component, packets by mode, drops
// and monitoring notes by reason, the thresholds of each scope, when mitigation was on, and a
// one-line timeline of rate against threshold (each character a slice of the capture's duration),
// and the report's warnings where they apply (a scope whose thresholds may be wrong, no packet that
// reached protected space).
import { PROTECTION_COMPONENTS } from '../../protection-components.js';
import { counted } from '../../numbers.js';
import { count as n, share as pct, table } from './format.js';
import { scopeName, unprotectedWarning, type AtpComponentReport, type AtpReport, type AtpScopeReport } from '../../atp/index.js';

const LEVELS = ' ▁▂▃▄▅▆▇█';


/**
 * Rate against time as bar heights (relative to the scope's peak), one character per slice of the
 * capture's duration; '!' marks slices with mitigation on. Slices without packets stay blank.
 */
export function sparkline(scope: AtpScopeReport, duration: number, width = 60): { rate: string; mitigation: string } {
  const points = scope.timeline;
  if (points.length === 0) return { rate: '', mitigation: '' };
  const span = Math.max(duration, points[points.length - 1].time, 1e-9);
  const columns = Math.max(1, Math.min(width, Math.ceil(span) + 1));
  const rates = new Float64Array(columns);
  const mitigating = new Uint8Array(columns);
  const seen = new Uint8Array(columns);
  let peak = 1;
  for (const p of points) if (p.ratePps > peak) peak = p.ratePps;
  for (const p of points) {
    const c = Math.min(columns - 1, Math.floor((p.time / span) * columns));
    rates[c] = Math.max(rates[c], p.ratePps);
    seen[c] = 1;
    if (p.mitigating) mitigating[c] = 1;
  }
  let rate = '';
  let mitigation = '';
  for (let c = 0; c < columns; c++) {
    rate += seen[c] ? LEVELS[Math.max(1, Math.ceil((rates[c] / peak) * (LEVELS.length - 1)))] : ' ';
    mitigation += mitigating[c] ? '!' : '.';
  }
  return { rate, mitigation };
}

function component(name: string, c: AtpComponentReport, duration: number): string[] {
  const out: string[] = [];
  const seen = c.packets.enabled + c.packets.monitoring + c.packets.disabled;
  out.push(`${name}: ${counted(seen, 'packet')} (enabled ${n(c.packets.enabled)}, monitoring ${n(c.packets.monitoring)}, disabled ${n(c.packets.disabled)})`);
  const reasons = table(['reason', 'dropped', 'monitoring: would drop']);
  let any = false;
  for (const reason of Object.keys(c.dropped) as Array<keyof typeof c.dropped>) {
    if (c.dropped[reason] === 0 && c.flagged[reason] === 0) continue;
    any = true;
    reasons.push([reason, n(c.dropped[reason]), n(c.flagged[reason])]);
  }
  if (any) out.push(reasons.toString());
  if (c.challenged > 0 || c.challengesPassed > 0) out.push(`challenged ${n(c.challenged)} SYNs; ${n(c.challengesPassed)} challenges passed`);
  for (const s of c.scopes) {
    const thresholds =
      s.rateThresholdPps === null
        ? 'thresholds still being learned when the capture ended'
        : `rate threshold ${n(s.rateThresholdPps)} pps, burst ${n(s.burstThresholdPps ?? 0)} pps (baseline ${n(s.baselinePps ?? 0)} pps, ${s.baselineSource})`;
    out.push(`  scope ${scopeName(s)}: ${counted(s.packets, 'packet')}, peak ${n(s.peakRatePps)} pps / burst ${n(s.peakBurstPps)} pps; ${thresholds}`);
    if (s.warning !== null) out.push(`    warning: ${s.warning}`);
    const periods = s.mitigations.map((p) => `${p.start.toFixed(1)}-${p.end === null ? 'end' : p.end.toFixed(1)} s`);
    out.push(`    mitigation on: ${periods.length === 0 ? 'never' : periods.join(', ')}`);
    const line = sparkline(s, duration);
    if (line.rate !== '') out.push(`    rate       |${line.rate}|`, `    mitigating |${line.mitigation}|`);
  }
  return out;
}

export function formatAtp(r: AtpReport): string {
  const out: string[] = ['Advanced TCP Protection'];
  if (!r.status) return 'Advanced TCP Protection: off (tcp_protection_status.enabled is false)';
  const p = r.packets;
  out.push(
    `${n(p.protected)} protected packets of ${n(p.seen)} seen (${n(p.allowlisted)} allowlisted), ${n(p.dropped)} dropped, ${n(p.flagged)} flagged by monitoring, ${n(p.undecided)} undecided`,
  );
  const unprotected = unprotectedWarning(r);
  if (unprotected !== null) out.push(`warning: ${unprotected}`);
  out.push(`connections: ${n(r.connections.created)} tracked, peak ${n(r.connections.peak)} live${r.connections.untracked > 0 ? `, ${n(r.connections.untracked)} untracked (table full)` : ''}`);
  for (const c of PROTECTION_COMPONENTS) out.push(...component(`${c.title} (${c.name})`, r.components[c.name], r.duration));
  if (r.labels !== null) {
    const l = r.labels;
    const score = table(['ATP against ground truth', 'total', 'dropped', 'flagged (monitoring)', 'share dropped']);
    score.push(['attack packets', n(l.attackPackets), n(l.attackDropped), n(l.attackFlagged), pct(l.attackDropped, l.attackPackets)]);
    score.push(['legitimate packets', n(l.legitPackets), n(l.legitDropped), n(l.legitFlagged), pct(l.legitDropped, l.legitPackets)]);
    out.push(score.toString());
    out.push(
      `legitimate flows: ${n(l.legitFlows)}; challenged ${n(l.legitFlowsChallenged)}; harmed ${n(l.legitFlowsHarmed)} (${pct(l.legitFlowsHarmed, l.legitFlows)}); would be harmed in enabled mode ${n(l.legitFlowsWouldBeHarmed)}`,
    );
  }
  return out.join('\n');
}
