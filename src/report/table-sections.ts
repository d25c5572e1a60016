// The report's tables: what the drops were (by rule, by reason), who sent and received them, every
// firewall rule with its hits (never-hit rules and lint findings marked), the score against ground
// truth when the capture has labels, and monitoring and decode notes. Bars are small SVGs inside
// table cells (no script), so they read as tables to assistive technology and print as they look.
import type { TopAddresses } from '../sim/drop-breakdown.js';
import { labelScoreRows } from '../sim/outputs/label-score-rows.js';
import { barCell, largest, num, pct, text } from './html.js';
import type { ReportData } from './report-data.js';
import { COLORS } from './style.js';
import { isStage, stageName } from './traffic-sections.js';

function table(caption: string, head: string[], rows: string[], numeric: number[] = [], cls = ''): string {
  const th = head.map((h, i) => `<th scope="col"${numeric.includes(i) ? ' class="n"' : ''}>${h}</th>`).join('');
  return `<table${cls ? ` class="${cls}"` : ''}><caption>${caption}</caption><thead><tr>${th}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function none(what: string): string {
  return `<p class="empty">${what}</p>`;
}

export function dropsSection(r: ReportData): string {
  const byRule = r.drops.byRule;
  const maxRule = largest(byRule.map((x) => x.packets), 0);
  const ruleRows = byRule.map((x) => `<tr><th scope="row">${text(x.rule)}</th><td class="n">${num(x.packets)}</td>${barCell(x.packets, maxRule, r.dropped, COLORS.firewall)}</tr>`);
  const byReason = r.drops.byReason;
  const maxReason = largest(byReason.map((x) => x.packets), 0);
  const reasonRows = byReason.map(
    (x) => `<tr><th scope="row">${text(stageName(x.stage))}: ${text(x.reason)}</th><td class="n">${num(x.packets)}</td>${barCell(x.packets, maxReason, r.dropped, isStage(x.stage) ? COLORS[x.stage] : COLORS.threshold)}</tr>`,
  );
  const head = ['packets', 'share of all drops'];
  return `<section class="card" aria-labelledby="h-drops">
<h2 id="h-drops">What dropped</h2>
<p class="note">${num(r.dropped)} of ${num(r.packets)} packets dropped (${pct(r.dropped, r.packets)}).</p>
<div class="grid2">
<div>${byRule.length > 0 ? table('Drops by firewall rule', ['rule', ...head], ruleRows, [1]) : `<h3>Drops by firewall rule</h3>${none('No firewall rule dropped a packet.')}`}</div>
<div>${byReason.length > 0 ? table('Drops by reason', ['stage: reason', ...head], reasonRows, [1]) : `<h3>Drops by reason</h3>${none('No packet was dropped.')}`}</div>
</div>
</section>`;
}

function topTable(caption: string, top: TopAddresses, dropped: number): string {
  if (top.entries.length === 0) return `<h3>${caption}</h3>${none('No dropped IP packets.')}`;
  const max = top.entries[0].packets;
  const rows = top.entries.map(
    (e) => `<tr><th scope="row"><code>${text(e.address)}</code></th><td class="n">${num(e.packets)}${e.error > 0 ? ` <span title="may overstate by up to ${num(e.error)}">±${num(e.error)}</span>` : ''}</td>${barCell(e.packets, max, dropped, '#8c94a8')}</tr>`,
  );
  return table(caption, ['address', 'drops', 'share of drops'], rows, [1], 'top');
}

export function topSection(r: ReportData): string {
  const { topSources, topDestinations } = r.drops;
  const exact = topSources.exact && topDestinations.exact;
  return `<section class="card" aria-labelledby="h-top">
<h2 id="h-top">Top sources and destinations among drops</h2>
<p class="note">${exact ? 'Exact counts.' : 'Too many distinct addresses to count each one: counts are estimates, too high by at most the ± beside them.'}</p>
<div class="grid2"><div>${topTable('Sources', topSources, r.dropped)}</div><div>${topTable('Destinations', topDestinations, r.dropped)}</div></div>
</section>`;
}

export function rulesSection(r: ReportData): string {
  if (r.rules.length === 0) {
    return `<section class="card" aria-labelledby="h-rules"><h2 id="h-rules">Firewall rules</h2>${none('The configuration has no firewall rules: every packet the protections pass is passed.')}</section>`;
  }
  const lint = r.lint ?? [];
  const maxHits = largest(r.rules.map((x) => x.hits), 0);
  const never = new Set(r.neverHit);
  const rows = r.rules.map((rule, i) => {
    const badges = [
      `<span class="badge ${text(rule.action)}">${text(rule.action)}</span>`,
      rule.enabled ? '' : '<span class="badge">disabled</span>',
      never.has(rule.ref) ? '<span class="badge never">never hit</span>' : '',
      ...lint.filter((f) => f.rule === rule.ref).map((f) => `<span class="badge lint" title="${text(f.message)}">${text(f.kind)}</span>`),
    ].join('');
    const what = `${rule.description ? `<span class="desc">${text(rule.description)}</span>` : ''}<code>${text(rule.expression)}</code>`;
    return `<tr${rule.enabled ? '' : ' class="disabled"'}><td class="n">${i + 1}</td><th scope="row">${text(rule.ref)}<br>${badges}</th><td class="n">${num(rule.hits)}</td>${barCell(rule.hits, maxHits, r.packets, COLORS.pass)}<td class="n">${num(rule.decided)}</td><td>${what}</td></tr>`;
  });
  const findings = lint.map((f) => `<tr><th scope="row">${text(f.rule)}</th><td>${text(f.ruleset)}</td><td>${text(f.kind)}</td><td>${text(f.message)}</td></tr>`);
  return `<section class="card" aria-labelledby="h-rules">
<h2 id="h-rules">Firewall rules, in evaluation order</h2>
<p class="note">Hits: packets the rule matched. Decided: packets whose verdict it decided. ${r.neverHit.length > 0 ? `${r.neverHit.length} enabled rule${r.neverHit.length === 1 ? '' : 's'} never hit.` : 'Every enabled rule was hit.'}</p>
${table('Rules', ['#', 'rule', 'hits', 'share of packets', 'decided', 'description and expression'], rows, [0, 2, 4], 'rules')}
${findings.length > 0 ? table('Lint findings', ['rule', 'ruleset', 'kind', 'finding'], findings) : ''}
</section>`;
}

export function labelsSection(r: ReportData): string {
  const l = r.labels;
  if (l === null) return '';
  const body = labelScoreRows(l).map(
    (row) =>
      `<tr><th scope="row">${text(row.measure)}</th><td class="n">${num(row.dropped)} of ${num(row.total)}</td>${barCell(row.dropped, row.total, row.total, row.traffic === 'attack' ? COLORS.stopped : COLORS.firewall)}</tr>`,
  );
  return `<section class="card" aria-labelledby="h-labels">
<h2 id="h-labels">Against ground truth</h2>
<p class="note">The capture's labels say which packets belong to the attack: the whole path is scored against them.</p>
${table('Label scores', ['measure', 'dropped', 'share'], body, [1])}
</section>`;
}

export function notesSection(r: ReportData): string {
  const parts: string[] = [];
  const flagged = Object.entries(r.monitorFlagged);
  if (flagged.length > 0) {
    const rows = flagged.map(([key, n]) => {
      const [stage, reason] = key.split(':');
      return `<tr><th scope="row">${text(stageName(stage))}</th><td>${text(reason ?? '')}</td><td class="n">${num(n)}</td></tr>`;
    });
    parts.push(table('Monitoring mode: would have dropped', ['component', 'reason', 'packets'], rows, [2]));
  }
  if (r.notes.length > 0) {
    const rows = r.notes.map((n) => `<tr><th scope="row">${text(n.note)}</th><td class="n">${num(n.packets)}</td><td class="n">${n.firstFile === undefined ? num(n.firstFrame) : text(`${n.firstFile}:${n.firstFrame}`)}</td></tr>`);
    parts.push(table('Decode notes', ['note', 'packets', 'first frame'], rows, [1, 2]));
  }
  if (r.nonIpPackets > 0) parts.push(`<p class="note">Packets without IP, passed without inspection: ${num(r.nonIpPackets)}.</p>`);
  if (parts.length === 0) return '';
  return `<section class="card" aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2>${parts.join('\n')}</section>`;
}
