// The fields of a replay's per-packet outputs, listed once. NDJSON (the contract in DESIGN.md) and
// CSV are two spellings of this one list: a field is a key of the NDJSON object and a column of the
// CSV row; a group (`monitor`) is an object in NDJSON, null when the packet has none, and a column
// per member in CSV (`monitor_stage`, ...). Both read each value from the same function, so the two
// outputs cannot disagree about a packet.
import type { PacketRecord } from '../../capture/record.js';
import type { Firewall } from '../../firewall/firewall.js';
import { UsageError } from '../../errors.js';
import { fieldReader } from '../../fields/render.js';
import { verdictName } from '../../verdict.js';
import { decidingRule, type PacketVerdict } from '../verdict.js';

/** The packet being written, and what its values are read from; one per output, set for each packet. */
export class PacketAt {
  rec!: PacketRecord;
  v!: PacketVerdict;

  /** `files`: the names of merged captures, by PacketRecord.file (OpenCapture.fileNames); null for one capture */
  constructor(
    readonly firewall: Firewall,
    readonly files: readonly string[] | null = null,
  ) {}
}

/** Firewall rules by their place in the firewall's list: the first `matchedCount` of `matched` (a FirewallResult). */
export interface RuleList {
  readonly matched: ArrayLike<number>;
  readonly matchedCount: number;
}

/**
 * A value: `number` is the text of a JSON number (written as it is in both formats), `literal` the
 * text of a JSON number or boolean or null (empty in CSV), `text` a string or null, `rules` a list of
 * firewall rules, written by their refs (a JSON array; joined by ';' in CSV). An `optional` field is
 * left out of the NDJSON object when it is null.
 */
export type PacketField =
  | { readonly name: string; readonly kind: 'number'; value(p: PacketAt): string }
  | { readonly name: string; readonly kind: 'literal'; value(p: PacketAt): string | null }
  | { readonly name: string; readonly kind: 'text'; readonly optional?: boolean; readonly merged?: boolean; value(p: PacketAt): string | null }
  | { readonly name: string; readonly kind: 'rules'; value(p: PacketAt): RuleList };

export interface PacketFieldGroup {
  readonly name: string;
  present(p: PacketAt): boolean;
  readonly fields: readonly PacketField[];
}

/**
 * frame (1-based, as Wireshark numbers frames), file (only when several captures are merged: the
 * frame's capture, in which `frame` numbers it), time, verdict, stage, rule (the firewall rule that
 * decided, or for a protection drop the ATP filter or rule whose mode applied), matched (every rule
 * that matched, in evaluation order), monitor (what a protection in monitoring mode would have done,
 * and the filter or rule that set that mode), reason (ATP's), note (when decoding stopped early).
 */
export const PACKET_FIELDS: ReadonlyArray<PacketField | PacketFieldGroup> = [
  { name: 'frame', kind: 'number', value: (p) => String(p.rec.frame) },
  { name: 'file', kind: 'text', optional: true, merged: true, value: (p) => (p.files === null ? null : p.files[p.rec.file]!) },
  { name: 'time', kind: 'number', value: (p) => p.rec.timeText() },
  { name: 'verdict', kind: 'text', value: (p) => verdictName(p.v.drop) },
  { name: 'stage', kind: 'text', value: (p) => p.v.stage },
  { name: 'rule', kind: 'text', value: (p) => decidingRule(p.v, p.firewall) },
  { name: 'matched', kind: 'rules', value: (p) => p.v.firewall },
  {
    name: 'monitor',
    present: (p) => p.v.atp.monitor !== null,
    fields: [
      { name: 'stage', kind: 'text', value: (p) => p.v.atp.monitor!.stage },
      { name: 'verdict', kind: 'text', value: (p) => p.v.atp.monitor!.verdict },
      { name: 'reason', kind: 'text', value: (p) => p.v.atp.monitor!.reason },
      { name: 'rule', kind: 'text', value: (p) => p.v.atp.source?.ref ?? null },
    ],
  },
  { name: 'reason', kind: 'text', value: (p) => p.v.reason },
  { name: 'note', kind: 'text', optional: true, value: (p) => (p.rec.note === '' ? null : p.rec.note) },
];

/**
 * The packet's own fields named by `--fields` (Rules-language names), after the contract's, their
 * values as `edgesim inspect` prints them (fields/render.ts), null when the packet lacks one.
 */
/** The reader of a field --fields names; a usage error when no packet has it. */
export function requestedField(name: string): NonNullable<ReturnType<typeof fieldReader>> {
  const field = fieldReader(name);
  if (field === undefined) throw new UsageError(`--fields: ${JSON.stringify(name)} is not a field of a packet (see edgesim fields)`);
  return field;
}

export function recordFieldColumns(names: readonly string[]): PacketField[] {
  return names.map((name) => {
    const field = requestedField(name);
    if (field.type === 'Int' || field.type === 'Bool') {
      return { name, kind: 'literal', value: (p: PacketAt) => { const v = field.read(p.rec); return v === null ? null : String(v); } };
    }
    return { name, kind: 'text', value: (p: PacketAt) => field.read(p.rec) as string | null };
  });
}

/** The fields of a replay's lines: `file` only when several captures are merged (`files`, OpenCapture.fileNames). */
export function packetFields(files: readonly string[] | null): ReadonlyArray<PacketField | PacketFieldGroup> {
  return files === null ? PACKET_FIELDS.filter((f) => isGroup(f) || f.kind !== 'text' || f.merged !== true) : PACKET_FIELDS;
}

export function isGroup(f: PacketField | PacketFieldGroup): f is PacketFieldGroup {
  return 'fields' in f;
}

/** How many texts each output keeps quoted: rule names, stages, reasons and notes are few, and a packet then allocates nothing for them. */
const QUOTED_MAX = 4096;

/** Texts as one format quotes them, remembered. */
export class Quoted {
  private readonly seen = new Map<string, string>();

  constructor(private readonly quote: (s: string) => string) {}

  of(s: string): string {
    let q = this.seen.get(s);
    if (q === undefined) {
      q = this.quote(s);
      if (this.seen.size < QUOTED_MAX) this.seen.set(s, q);
    }
    return q;
  }
}
