// A packet trace as text for people: the verdict, one row per stage, and the firewall's rules in
// order as a table (tried, matched, decided). `edgesim trace` prints it on a terminal; `edgesim test`
// prints it under a failed expectation.
import type { PacketTrace, StageStep } from '../trace.js';

function table(rows: string[][], indent: string): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => indent + r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd());
}

function detail(step: StageStep): string {
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
  const out = [head, `${indent}packet: ${fields || '(no IP)'}`];
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
