// The report's head and its time charts: what was replayed through what, the totals, verdicts over
// time, and each ATP meter's rates against its thresholds. Each chart is a figure with a title, a
// text alternative, and its numbers as a table for readers who cannot see the picture.
import { PROTECTION_COMPONENTS, type ComponentName } from '../protection-components.js';
import type { AtpScopeReport } from '../atp/report.js';
import { SERIES_COLUMNS } from '../sim/verdict-series.js';
import { type ChartData } from './chart-data.js';
import { fallbackTable, largest, num, pct, text } from './html.js';
import type { ReportData } from './report-data.js';

/** Rows a chart's fallback table has at most: buckets are merged to fit. */
const TABLE_ROWS = 40;

type StageKey = 'pass' | 'firewall' | ComponentName;

/** each series column's word: passed, firewall, each protection component's */
export const STAGE_NAMES = {
  pass: 'passed',
  firewall: 'firewall',
  ...(Object.fromEntries(PROTECTION_COMPONENTS.map((c) => [c.name, c.short])) as Record<ComponentName, string>),
} as Readonly<Record<StageKey, string>>;

/** Whether a key read from a summary is one of the stages the page knows (and may name a class). */
export function isStage(key: string): key is StageKey {
  return Object.hasOwn(STAGE_NAMES, key);
}

/** A stage's name for people; a stage the page does not know (a summary from another version) by its key. */
export function stageName(key: string): string {
  return isStage(key) ? STAGE_NAMES[key] : key;
}

// A time past what a Date holds (±275,000 years; a pcapng timestamp can be larger) is said in seconds.
function utc(epochSeconds: number): string {
  const date = new Date(epochSeconds * 1000);
  if (Number.isNaN(date.getTime())) return `${num(epochSeconds)} s after 1970-01-01 00:00:00 UTC`;
  return `${date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
}

function seconds(v: number): string {
  return v >= 100 ? num(v, 0) : v >= 1 ? num(v, 2) : num(v, 3);
}

export function header(r: ReportData): string {
  const span = r.firstTime !== null && r.lastTime !== null ? r.lastTime - r.firstTime : null;
  const ruleCount = r.rules.length;
  const rulesets = new Set(r.rules.map((x) => x.ruleset)).size;
  const facts: Array<[string, string]> = [
    ['capture', `<code>${text(r.capture.file)}</code> (${text(r.capture.format)}${r.capture.compressed ? ', gzip' : ''})`],
    ...(r.capture.files === undefined ? [] : [['merged by time', r.capture.files.map((f) => `<code>${text(f.file)}</code>: ${num(f.packets)} packets, ${num(f.passed)} passed, ${num(f.dropped)} dropped`).join('<br>')] as [string, string]]),
    ['configuration', r.configuration ? `<code>${text(r.configuration)}</code>` : 'none (every packet passes)'],
    ['firewall', ruleCount === 0 ? 'no rules' : `${num(ruleCount)} rule${ruleCount === 1 ? '' : 's'} in ${num(rulesets)} ruleset${rulesets === 1 ? '' : 's'}`],
    ['Advanced TCP Protection', r.atp === null ? 'off' : r.atp.status ? 'on' : 'off'],
  ];
  if (span !== null && r.firstTime !== null) facts.push(['traffic', `${seconds(span)} s from ${utc(r.firstTime)}`]);
  const tiles: Array<[string, number, string]> = [
    ['', r.packets, 'packets'],
    ['pass', r.passed, `passed · ${pct(r.passed, r.packets)}`],
    ['drop', r.dropped, `dropped · ${pct(r.dropped, r.packets)}`],
    ...Object.entries(r.droppedByStage)
      .filter(([, n]) => n > 0)
      .map(([stage, n]): [string, number, string] => [isStage(stage) ? stage : '', n, `${stageName(stage)} drops`]),
  ];
  const warnings = [...(r.warnings ?? []), ...r.capture.warnings];
  return `<header><div class="wrap">
<h1>edgesim replay report</h1>
<dl>${facts.map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('')}</dl>
<div class="tiles">${tiles.map(([cls, n, label]) => `<div class="tile ${cls}"><b>${num(n)}</b><span>${text(label)}</span></div>`).join('')}</div>
${warnings.length > 0 ? `<ul class="warnings">${warnings.map((w) => `<li>warning: ${text(w)}</li>`).join('')}</ul>` : ''}
</div></header>`;
}

/** Merges consecutive rows of `values` (one per x) into at most TABLE_ROWS groups. */
function groups(length: number): Array<[number, number]> {
  const size = Math.max(1, Math.ceil(length / TABLE_ROWS));
  const out: Array<[number, number]> = [];
  for (let k = 0; k < length; k += size) out.push([k, Math.min(length, k + size)]);
  return out;
}

export function verdictSection(r: ReportData, charts: ChartData): string {
  const s = r.series;
  const n = s.counts.pass.length;
  const shown = SERIES_COLUMNS.filter((c) => c === 'pass' || s.counts[c].some((v) => v > 0));
  const rows = groups(n).map(([a, b]) => [
    `${seconds(a * s.bucketSeconds)}–${seconds(b * s.bucketSeconds)} s`,
    ...shown.map((c) => num(s.counts[c].slice(a, b).reduce((x, y) => x + y, 0))),
  ]);
  const width = charts.verdicts.bucketSeconds;
  const bucket = width >= 1 ? `${num(width, 3)} s` : `${num(width * 1000, 3)} ms`;
  const alt = `Stacked packet rate over ${charts.verdicts.x.length} time buckets: ${shown.map((c) => `${STAGE_NAMES[c]} ${num(c === 'pass' ? r.passed : r.droppedByStage[c])}`).join(', ')} packets.`;
  return `<section class="card" aria-labelledby="h-verdicts">
<figure>
<figcaption><h2 id="h-verdicts">Verdicts over time</h2><p class="note">Packets per second, passed and dropped by the stage that dropped them (stacked; buckets of ${bucket}).</p></figcaption>
${charts.verdicts.x.length > 0 ? `<div class="chart" id="chart-verdicts" role="img" aria-label="${text(alt)}"></div>` : '<p class="empty">The capture holds no packets.</p>'}
${n === 0 ? '' : fallbackTable('Verdicts over time as a table', ['time since the first packet', ...shown.map((c) => (c === 'pass' ? 'passed' : `dropped: ${STAGE_NAMES[c]}`))], rows)}
</figure>
</section>`;
}

function scopeFacts(scope: AtpScopeReport, shift: number): string {
  const periods = scope.mitigations.map((m) => `${seconds(m.start + shift)}–${m.end === null ? 'end' : `${seconds(m.end + shift)}`} s`);
  const facts = [
    `thresholds: ${scope.rateThresholdPps === null ? 'not yet learned' : `${num(scope.rateThresholdPps, 1)} pps sustained, ${num(scope.burstThresholdPps ?? 0, 1)} pps burst`} (baseline ${scope.baselineSource})`,
    `peak ${num(scope.peakRatePps, 1)} pps sustained, ${num(scope.peakBurstPps, 1)} pps burst`,
    `mitigation: ${periods.length === 0 ? 'never on' : periods.join(', ')}`,
  ];
  return `<p class="note">${facts.map(text).join(' · ')}${scope.warning ? `<br>warning: ${text(scope.warning)}` : ''}</p>`;
}

export function atpSection(r: ReportData, charts: ChartData): string {
  if (r.atp === null) return '';
  const shift = r.atp.captureStart !== null && r.series.start !== null ? r.atp.captureStart - r.series.start : 0;
  const figures: string[] = [];
  for (const { name: stage } of PROTECTION_COMPONENTS) {
    r.atp.components[stage].scopes.forEach((scope, i) => {
      const chart = charts.atp.find((c) => c.id === `atp-${stage}-${i}`);
      if (chart === undefined) return;
      const t = scope.timeline;
      const rows = groups(t.length).map(([a, b]) => {
        const run = t.slice(a, b);
        const max = (pick: (p: (typeof t)[number]) => number | null): string => {
          const v = run.map(pick).filter((x): x is number => x !== null);
          return v.length === 0 ? '–' : num(largest(v), 1);
        };
        return [
          `${seconds(run[0].time + shift)} s`,
          max((p) => p.ratePps),
          max((p) => p.burstPps),
          max((p) => p.rateThresholdPps),
          max((p) => p.burstThresholdPps),
          run.some((p) => p.mitigating) ? 'yes' : 'no',
        ];
      });
      const alt = `${chart.title}: sustained rate peaked at ${num(scope.peakRatePps, 1)} packets per second against a threshold of ${scope.rateThresholdPps === null ? 'none (still learning)' : num(scope.rateThresholdPps, 1)}; mitigation was on ${scope.mitigations.length} time${scope.mitigations.length === 1 ? '' : 's'}.`;
      figures.push(`<figure>
<figcaption><h3>${text(chart.title)}</h3>${scopeFacts(scope, shift)}</figcaption>
<div class="chart" id="${text(chart.id)}" role="img" aria-label="${text(alt)}"></div>
${fallbackTable(`${text(chart.title)} as a table`, ['from (s)', 'sustained pps', 'burst pps', 'rate threshold', 'burst threshold', 'mitigating'], rows)}
</figure>`);
    });
  }
  const body = figures.length > 0 ? figures.join('\n') : '<p class="empty">No packet reached an ATP component.</p>';
  return `<section class="card" aria-labelledby="h-atp">
<h2 id="h-atp">Advanced TCP Protection: rates against thresholds</h2>
<p class="note"><span class="swatch mitigation"></span>Shaded: mitigation on. Times are seconds since the capture's first packet.</p>
${body}
</section>`;
}
