// The bench report for people (a table, the costliest rules first) and the figures `--save` keeps and
// `--compare` reads back: whole-path and firewall packets/s (higher is better) and each rule's ns per
// evaluation timed alone (lower is better; the batch time as measured, its loop included, not scaled
// to the firewall's time as the table's figures are), by name, each with its samples (of which
// pooled-figures.ts keeps each process's median), so a saved run compares row by row with a later
// one and each row's difference is weighed against its noise.
import { groupDigits, counted } from '../numbers.js';
import { printable } from '../terminal-text.js';
import type { BenchReport } from './benchmark.js';
import type { EngineReport } from '../sim/engine-counts.js';
import type { PeerResult } from './peers.js';
import type { SampledFigure } from './pooled-figures.js';
import { median, packetsPerSecond, type Throughput } from './throughput.js';

export interface FullReport extends BenchReport {
  input: string;
  /** edgesim's whole path reading the capture file (when the peers ran): the figure set against them */
  from_file_packets_per_second: number | null;
  peers: PeerResult[];
}

/** A throughput as packets/s, with each sample's rate for the significance test. */
function rateFigure(name: string, t: Throughput): SampledFigure {
  return { name, value: t.packets_per_second, unit: 'packets/s', better: 'higher', samples: t.samples_ns.map((ns) => packetsPerSecond(t.packets, ns)) };
}

export function figuresOf(r: FullReport): SampledFigure[] {
  const figures: SampledFigure[] = [rateFigure('whole path', r.whole_path), rateFigure('firewall alone', r.firewall)];
  for (const rule of r.rules) {
    const samples = rule.batch_samples_ns_per_evaluation;
    if (rule.evaluations > 0) figures.push({ name: `rule ${rule.rule}`, value: median(samples), unit: 'ns/eval alone', better: 'lower', samples });
  }
  return figures;
}

const n = (v: number) => groupDigits(Math.round(v));
const ns = (v: number) => (v >= 100 ? n(v) : v.toFixed(1));

function spread(t: { packets_per_second: number; packets_per_second_min: number; packets_per_second_max: number; ns_per_packet: number; runs: number }): string {
  return `${n(t.packets_per_second)} packets/s, ${ns(t.ns_per_packet)} ns/packet (median of ${t.runs}; ${n(t.packets_per_second_min)} - ${n(t.packets_per_second_max)})`;
}

function engineLine(e: EngineReport): string {
  const frames = e.compiled + e.fallback;
  const share = frames === 0 ? '' : ` (${((100 * e.compiled) / frames).toFixed(1)}%)`;
  const listed = (reasons: Record<string, number>) => Object.entries(reasons).map(([reason, k]) => `${printable(reason)} ${n(k)}`).join(', ');
  const fell = e.fallback > 0 ? `; fell back: ${listed(e.fallback_reasons)}` : '';
  const decoded = e.decoded > 0 ? `; ${counted(e.decoded, 'frame')} decoded for rules: ${listed(e.decoded_reasons)}` : '';
  return `${n(e.compiled)} of ${counted(frames, 'frame')}${share}${fell}${decoded}`;
}

/** Columns right-aligned, but the last (a rule's name, after the figures, so no line starts with it: terminal-text.ts). */
function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const last = widths.length - 1;
  return cells.map((row) => row.map((c, i) => (i === last ? c : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export function formatReport(r: FullReport): string {
  const lines: string[] = [];
  lines.push(`${printable(r.input)}: ${counted(r.packets, 'packet')} held in memory`);
  lines.push(`whole path (${r.atp ? 'decode + ATP + firewall' : 'fast path, else decode + firewall'}): ${spread(r.whole_path)}`);
  lines.push(`firewall alone:                 ${spread(r.firewall)}`);
  lines.push(`compiled path: ${engineLine(r.engine)}`);
  const ours = r.from_file_packets_per_second;
  if (ours !== null) lines.push(`edgesim replay of the file:     ${n(ours)} packets/s`);
  for (const p of r.peers) {
    if (p.packets_per_second === null || ours === null) lines.push(`${p.tool}: not compared (${p.skipped})`);
    else lines.push(`${p.tool}: ${n(p.packets_per_second)} packets/s (whole process, reading the file); edgesim replay / ${p.tool} = ${(ours / p.packets_per_second).toFixed(2)}x`);
  }
  lines.push(`peak memory (RSS): ${n(r.peak_rss_bytes / 2 ** 20)} MB`);
  lines.push('');
  const rows = [...r.rules].sort((a, b) => b.ns_total - a.ns_total || a.position - b.position);
  lines.push(
    pad([
      ['#', 'action', 'evaluations', 'matches', 'ns/eval', 'total ms', 'share', 'rule (costliest first)'],
      ...rows.map((x) => [
        String(x.position + 1),
        x.action,
        n(x.evaluations),
        n(x.matches),
        ns(x.ns_per_evaluation),
        (x.ns_total / 1e6).toFixed(3),
        `${(x.share * 100).toFixed(1)}%`,
        `${printable(x.rule)}${x.enabled ? (x.never_hit ? '  (never hit)' : '') : '  (disabled)'}`,
      ]),
    ]),
  );
  lines.push('');
  lines.push('rule times are each rule timed alone in batches, scaled to the firewall\'s measured time (their sum)');
  if (r.never_hit.length > 0) lines.push(`never hit: ${printable(r.never_hit.join(', '))}`);
  if (r.reorder.length === 0) lines.push(`reordering: no move saves evaluations (check: ${r.reorder_check})`);
  else {
    lines.push(`reordering (moves that cannot change a verdict; check: ${r.reorder_check}):`);
    for (const a of r.reorder) lines.push(`  move ${printable(a.rule)} before ${printable(a.before)}: saves ${n(a.evaluations_saved)} evaluations on this capture`);
  }
  return `${lines.join('\n')}\n`;
}
