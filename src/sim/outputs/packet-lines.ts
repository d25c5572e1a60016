// A packet's line in each per-packet output, spelled from the one list of fields (packet-fields.ts):
// the NDJSON object and the CSV row. Each spelling is compiled once per output into one function
// that concatenates the line in the list's order, each field's value read by its own call, so a
// packet costs what a hand-written line costs (a loop over the list, asking each field its kind,
// took 40% more time) and allocates nothing but the line.
import { printable } from '../../terminal-text.js';
import type { PacketRecord } from '../../capture/record.js';
import type { Firewall } from '../../firewall/firewall.js';
import type { PacketVerdict } from '../verdict.js';
import { isGroup, packetFields, PacketAt, Quoted, type PacketField, type PacketFieldGroup, type RuleList } from './packet-fields.js';

/** Writes one packet's line, newline included. */
export type PacketLine = (rec: PacketRecord, v: PacketVerdict) => string;

/** What compiled code calls: each field's value function (V), and the spelling's helpers (H). */
interface Compiled {
  values: Array<(p: PacketAt) => unknown>;
  helpers: Record<string, (value: never) => string>;
}

function valueAt(c: Compiled, read: (p: PacketAt) => unknown): string {
  c.values.push(read);
  return `V[${c.values.length - 1}](at)`;
}

function compile(c: Compiled, firewall: Firewall, files: readonly string[] | null, lineCode: string): PacketLine {
  const at = new PacketAt(firewall, files);
  const line = new Function('V', 'H', 'at', `return (rec, v) => { at.rec = rec; at.v = v; let t; return ${lineCode}; };`);
  return line(c.values, c.helpers, at) as PacketLine;
}

/** the firewall rules of a list, by their refs spelled by `ref`, joined by `sep` */
function ruleNames(firewall: Firewall, ref: (name: string) => string, sep: string): (rules: RuleList) => string {
  const refs = firewall.rules.map((r) => ref(r.ref));
  return ({ matched, matchedCount }) => {
    let list = '';
    for (let k = 0; k < matchedCount; k++) list += (k === 0 ? '' : sep) + refs[matched[k]];
    return list;
  };
}

/**
 * One JSON object per packet, its keys the fields in order, then `extra` (recordFieldColumns); an
 * optional field that is null is left out (it is never first). `files`: the merged captures' names (packetFields).
 */
export function ndjsonLine(firewall: Firewall, extra: readonly PacketField[] = [], files: readonly string[] | null = null): PacketLine {
  const quoted = new Quoted(JSON.stringify);
  const names = ruleNames(firewall, JSON.stringify, ',');
  const c: Compiled = {
    values: [],
    helpers: { text: (t: string | null) => (t === null ? 'null' : quoted.of(t)), rules: (r: RuleList) => `[${names(r)}]` },
  };
  const object = (fields: ReadonlyArray<PacketField | PacketFieldGroup>): string =>
    fields
      .map((f, i) => {
        const key = JSON.stringify(`${i === 0 ? '' : ','}"${f.name}":`);
        if (isGroup(f)) return `${key} + (${valueAt(c, f.present)} ? "{" + ${object(f.fields)} + "}" : "null")`;
        const value = valueAt(c, f.value);
        if (f.kind === 'number') return `${key} + ${value}`;
        if (f.kind === 'literal') return `${key} + ((t = ${value}) === null ? "null" : t)`;
        if (f.kind === 'rules') return `${key} + H.rules(${value})`;
        if (f.optional === true) return `((t = ${value}) === null ? "" : ${key} + H.text(t))`;
        return `${key} + H.text(${value})`;
      })
      .join(' + ');
  return compile(c, firewall, files, `"{" + ${object([...packetFields(files), ...extra])} + "}\\n"`);
}

/** A text cell: control characters written as the text outputs write them (terminal-text.ts), so a row is one line; quoted when it holds `"` or `,`. */
function csvField(text: string): string {
  const s = printable(text);
  return /[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV header: the fields' names, a group's members named `<group>_<member>`, then `extra`'s. */
export function csvColumns(extra: readonly PacketField[] = [], files: readonly string[] | null = null): string[] {
  return [...packetFields(files), ...extra].flatMap((f) => (isGroup(f) ? f.fields.map((m) => `${f.name}_${m.name}`) : [f.name]));
}

/**
 * RFC 4180 CSV, one row per packet, a column per field (csvColumns), then `extra`; a group's columns
 * are empty when the packet has none, as is a literal that is null; rules are joined by ';'.
 */
export function csvLine(firewall: Firewall, extra: readonly PacketField[] = [], files: readonly string[] | null = null): PacketLine {
  const quoted = new Quoted(csvField);
  const names = ruleNames(firewall, (ref) => ref, ';');
  const c: Compiled = {
    values: [],
    helpers: { text: (t: string | null) => (t === null ? '' : quoted.of(t)), rules: (r: RuleList) => quoted.of(names(r)) },
  };
  const cells = (fields: ReadonlyArray<PacketField | PacketFieldGroup>): string =>
    fields
      .map((f) => {
        if (isGroup(f)) return `(${valueAt(c, f.present)} ? ${cells(f.fields)} : ${JSON.stringify(','.repeat(f.fields.length - 1))})`;
        const value = valueAt(c, f.value);
        if (f.kind === 'number') return value;
        if (f.kind === 'literal') return `((t = ${value}) === null ? "" : t)`;
        return f.kind === 'rules' ? `H.rules(${value})` : `H.text(${value})`;
      })
      .join(' + "," + ');
  return compile(c, firewall, files, `${cells([...packetFields(files), ...extra])} + "\\n"`);
}
