// A capture diff for people (a table of change groups) and for programs (the result as JSON; one
// NDJSON line per changed frame, the contract in DESIGN.md).
import { decodeFrameAt } from '../../capture/decode/link-up.js';
import { PacketRecord } from '../../capture/record.js';
import { LOOKUP_FIELDS } from '../../fields/lookups.js';
import { UsageError } from '../../errors.js';
import { requestedField } from './packet-fields.js';
import { frameName, type Decision, type DiffResult } from '../diff.js';
import { printable } from '../../terminal-text.js';
import { count as n, share as pct, table } from './format.js';
import { counted } from '../../numbers.js';

/** How the table shows a rule by its ref (rule-places.ts ruleLabels: a rule without a ref of its own by its description). */
type Label = (ref: string) => string;

function side(d: Decision, label: Label): string {
  const by = d.rule === null ? (d.stage ?? 'no rule') : label(d.rule);
  return `${d.verdict} (${printable(by)})`;
}

export function formatDiff(r: DiffResult, warnings: readonly string[] = [], labels: { before: Label; after: Label } = { before: (ref) => ref, after: (ref) => ref }): string {
  const out: string[] = [];
  for (const w of warnings) out.push(`warning: ${printable(w)}`);
  if (r.changed === 0) {
    out.push(`${r.capture}: no change: each of ${counted(r.packets, 'packet')} is decided the same way`);
    return `${out.join('\n')}\n`;
  }
  out.push(`${r.capture}: ${n(r.changed)} of ${counted(r.packets, 'packet')} (${pct(r.changed, r.packets)}) decided differently`);
  const t = table(['before', 'after', 'verdict', 'packets', 'first frames']);
  for (const g of r.groups) {
    const verdict = g.before.verdict === g.after.verdict ? `${g.before.verdict} (same)` : `${g.before.verdict} -> ${g.after.verdict}`;
    t.push([side(g.before, labels.before), side(g.after, labels.after), verdict, n(g.packets), g.frames.map((_f, i) => printable(frameName(g, i))).join(', ') + (g.packets > g.frames.length ? ', ...' : '')]);
  }
  out.push(t.toString());
  return `${out.join('\n')}\n`;
}

export function diffJson(r: DiffResult, warnings: readonly string[] = []): string {
  const { info, ...rest } = r;
  return `${JSON.stringify({ ...rest, warnings: [...warnings, ...info.warnings] }, null, 2)}\n`;
}

const decisionJson = (d: Decision): string => JSON.stringify({ verdict: d.verdict, rule: d.rule, stage: d.stage });

/** One changed frame as an NDJSON line: {frame, file (with several captures: `files`, by PacketRecord.file), time, before, after}. */
export function diffLine(rec: PacketRecord, before: Decision, after: Decision, fields = '', files: readonly string[] | null = null): string {
  return `{"frame":${rec.frame}${files === null ? '' : `,"file":${JSON.stringify(files[rec.file])}`},"time":${rec.timeText()},"before":${decisionJson(before)},"after":${decisionJson(after)}${fields}}\n`;
}

/**
 * The packet's own fields `names` (--fields; looked-up fields refused) as NDJSON keys to add to a
 * changed frame's line, valued as edgesim inspect prints them (null when the packet lacks one), read
 * from the frame decoded in full: the fast path reads only the fields the rules use.
 */
export function fieldKeys(names: readonly string[]): (rec: PacketRecord) => string {
  const readers = names.map((name) => {
    const field = requestedField(name);
    if (LOOKUP_FIELDS.has(name)) throw new UsageError(`--fields: ${name} is looked up (GeoIP, ASN or data center), not read from the frame; diff's --fields takes the frame's own fields`);
    return [JSON.stringify(name), field] as const;
  });
  const scratch = new PacketRecord();
  return (rec) => {
    decodeFrameAt(scratch, rec.linkType, rec.data, rec.dataOff, rec.capLen, rec.origLen);
    return readers.map(([key, field]) => `,${key}:${JSON.stringify(field.read(scratch))}`).join('');
  };
}
