// A packet trace as text for people: the verdict, one row per stage, and the firewall's rules in
// order as a table (tried, matched, decided). `edgesim trace` prints it on a terminal; `edgesim test`
// prints it under a failed expectation.
import type { AtpExplanation } from '../../atp/index.js';
import type { ModeSource } from '../../atp/component-rules.js';
import { printable } from '../../terminal-text.js';
import type { PacketTrace, StageStep } from '../trace.js';

function table(cells: string[][], indent: string): string[] {
  const rows = cells.map((r) => r.map(printable));
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => indent + r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd());
}

function source(s: ModeSource): string {
  if (s.kind === 'default') return 'default';
  return s.kind === 'filter' ? `filter ${s.ref} (${s.expression})` : `rule ${s.ref} (${s.scope}${s.scope === 'global' ? '' : ` ${s.name}`})`;
}

function pps(v: number | null): string {
  return v === null ? 'learning' : String(v);
}

/** ATP's explanation in a few words: where the packet went, and the component that took it. */
function atpDetail(e: AtpExplanation): string {
  const parts = [`step=${e.step}`];
  if (e.destination.prefix !== null) parts.push(`prefix=${e.destination.prefix}${e.destination.excluded ? ' (excluded)' : ''}`);
  if (e.allowlisted) parts.push('allowlisted');
  const name = e.component;
  if (name !== null) {
    const c = e.components[name];
    const m = c.meter;
    parts.push(
      `mode=${c.mode} from ${source(c.modeFrom)}`,
      `connection=${e.connection!.before}->${e.connection!.after}`,
      `rate=${m.ratePps}/${pps(m.rateThresholdPps)} pps burst=${m.burstPps}/${pps(m.burstThresholdPps)} pps (thresholds from ${source(c.thresholdsFrom)})`,
      m.mitigating ? 'mitigating' : 'not mitigating',
    );
  }
  if (e.reason !== null) parts.push(`reason=${e.reason}`);
  if (e.monitor !== null) parts.push(`monitoring would drop: ${e.monitor.reason}`);
  if (e.undecided) parts.push('undecided (learning)');
  return parts.join(' ');
}

function detail(step: StageStep): string {
  if (step.step_name === 'advanced_tcp_protection' && 'components' in step.detail) return atpDetail(step.detail as AtpExplanation);
  return Object.entries(step.detail)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

const yes = (b: boolean): string => (b ? 'yes' : 'no');

export function formatTrace(t: PacketTrace, indent = ''): string {
  const head = `${indent}frame ${t.frame}  time ${t.time}  verdict ${t.verdict}  stage ${t.stage ?? '-'}  rule ${t.rule ?? '-'}${t.reason === null ? '' : `  reason ${t.reason}`}`;
  const fields = Object.entries(t.fields)
    .filter(([k]) => !['ip', 'tcp', 'udp', 'icmp'].includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const out = [printable(head), `${indent}packet: ${printable(fields) || '(no IP)'}`];
  out.push(...table([['stage', 'reached', 'decided', 'action', 'detail'], ...t.steps.map((s) => [s.step_name, yes(s.reached), yes(s.decided), s.action ?? '-', detail(s)])], indent));
  const rules = t.steps.find((s) => s.step_name === 'firewall')?.trace ?? [];
  if (rules.length > 0) {
    const rows = rules.map((r, i) => [
      String(i + 1),
      r.step_name,
      r.type,
      r.action,
      !r.enabled ? 'disabled' : r.matched === null ? 'not tried' : String(r.matched),
      r.decided ? 'DECIDED' : '',
      r.expression,
    ]);
    out.push(...table([['#', 'step_name', 'type', 'action', 'matched', 'decided', 'expression'], ...rows], `${indent}  `));
  }
  return out.join('\n');
}
