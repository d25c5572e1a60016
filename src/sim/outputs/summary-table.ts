// The replay summary for people: totals, drops by stage, per-rule hits, never-hit rules, monitoring
// notes, label scores and decode notes, as plain-text tables.
import { count as n, share as pct, table } from './format.js';
import type { ReplayReport } from '../summary.js';
import { counted } from '../../numbers.js';
import { printable } from '../../terminal-text.js';
import { formatAtp } from './atp-table.js';
import { labelScoreRows } from './label-score-rows.js';


export function formatSummary(r: ReplayReport, warnings: string[] = []): string {
  const out: string[] = [];
  const span = r.firstTime !== null && r.lastTime !== null ? `, ${(r.lastTime - r.firstTime).toFixed(3)} s of traffic` : '';
  out.push(`${printable(r.capture.file)} (${r.capture.format}${r.capture.compressed ? ', gzip' : ''}): ${counted(r.packets, 'packet')}${span}`);
  out.push(`replayed in ${r.elapsedSeconds.toFixed(3)} s (${n(Math.round(r.packetsPerSecond))} packets/s)`);
  for (const w of [...warnings, ...r.capture.warnings]) out.push(`warning: ${printable(w)}`);
  out.push('');

  const verdicts = table(['verdict', 'packets', 'share']);
  verdicts.push(['pass', n(r.passed), pct(r.passed, r.packets)]);
  verdicts.push(['drop', n(r.dropped), pct(r.dropped, r.packets)]);
  for (const [stage, count] of Object.entries(r.droppedByStage)) {
    if (count > 0) verdicts.push([`  by ${stage}`, n(count), pct(count, r.packets)]);
  }
  out.push(verdicts.toString());

  if (r.capture.files !== undefined) {
    const files = table(['capture (merged by time)', 'format', 'packets', 'pass', 'drop']);
    for (const f of r.capture.files) files.push([printable(f.file), `${f.format}${f.compressed ? ', gzip' : ''}`, n(f.packets), n(f.passed), n(f.dropped)]);
    out.push('', files.toString());
  }

  if (r.rules.length > 0) {
    const rules = table(['#', 'rule', 'action', 'hits', 'decided', 'description']);
    r.rules.forEach((rule, i) => {
      rules.push([String(i + 1), printable(rule.ref), rule.enabled ? rule.action : `${rule.action} (disabled)`, n(rule.hits), n(rule.decided), printable(rule.description)]);
    });
    out.push('', 'Firewall rules (in evaluation order)', rules.toString());
    if (r.neverHit.length > 0) out.push(`never hit: ${printable(r.neverHit.join(', '))}`);
  } else {
    out.push('', 'Firewall: no rules (every packet the protections pass is passed)');
  }

  const flagged = Object.entries(r.monitorFlagged);
  if (flagged.length > 0) {
    const mon = table(['monitoring mode would have dropped', 'reason', 'packets']);
    for (const [key, count] of flagged) {
      const [stage, reason] = key.split(':');
      mon.push([stage, reason, n(count)]);
    }
    out.push('', mon.toString());
  }

  if (r.atp !== null) out.push('', formatAtp(r.atp));

  if (r.labels !== null) {
    const score = table(['whole path against ground truth', 'total', 'dropped', 'share']);
    for (const row of labelScoreRows(r.labels)) score.push([row.measure, n(row.total), n(row.dropped), pct(row.dropped, row.total)]);
    out.push('', score.toString());
  }

  if (r.notes.length > 0 || r.nonIpPackets > 0) {
    const notes = table(['decode note', 'packets', 'first frame']);
    for (const note of r.notes) notes.push([note.note, n(note.packets), note.firstFile === undefined ? String(note.firstFrame) : `${printable(note.firstFile)}:${note.firstFrame}`]);
    out.push('', notes.toString());
    if (r.nonIpPackets > 0) out.push(`packets without IP, passed without inspection: ${n(r.nonIpPackets)}`);
  }
  return `${out.join('\n')}\n`;
}
