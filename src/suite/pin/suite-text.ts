// A pinned suite as YAML text written for people: a comment at the top, `config:`, and each case
// on three or four lines with its packet, space and expectation as one-line flow maps, the way
// examples/demo-suite.yaml is written; a list of maps (a space that is a union) one map a line.
// Scalars are plain where YAML reads them back as the same
// string, else double-quoted (JSON's quoting is YAML's, control characters escaped).

import { plainJson, printable } from '../../terminal-text.js';

export type FlowValue = string | number | boolean | null | readonly FlowValue[] | { readonly [key: string]: FlowValue };

export interface WrittenCase {
  readonly name: string;
  /** the case's keys beside name and expect, in order (packet:, space:, capture: ...) */
  readonly body: ReadonlyArray<readonly [string, FlowValue]>;
  readonly expect: { readonly [key: string]: FlowValue };
  /** a comment line above the case */
  readonly comment?: string;
}

const PLAIN = /^[A-Za-z0-9_/][A-Za-z0-9_./\-]*$/;
const READ_AS_OTHER = /^(?:true|false|null|yes|no|on|off|~|[-+]?(?:\d[\d_]*)?\.?\d*(?:e[-+]?\d+)?|0x[0-9a-f]+|0o[0-7]+|\.inf|\.nan)$/i;

function scalar(v: string | number | boolean | null): string {
  if (typeof v !== 'string') return String(v);
  return PLAIN.test(v) && !READ_AS_OTHER.test(v) ? v : plainJson(JSON.stringify(v));
}

/** A value as one line of YAML flow style. */
export function flow(v: FlowValue): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${scalar(k)}: ${flow(x)}`).join(', ')}}`;
  return scalar(v as string | number | boolean | null);
}

/** Comment lines, one per line of `text`; names in them printable (a CR would end a YAML comment: terminal-text.ts). */
function commentLines(text: string, indent = ''): string {
  return text.split('\n').map((l) => `${indent}#${l === '' ? '' : ` ${printable(l)}`}\n`).join('');
}

/** The suite: a header comment, the configuration's path (or paths), the cases, and a closing comment. */
export function suiteText(header: string, config: string | readonly string[], cases: readonly WrittenCase[], footer: string): string {
  let out = `${commentLines(header)}config: ${flow(config)}\ncases:\n`;
  for (const c of cases) {
    if (c.comment !== undefined) out += commentLines(c.comment, '  ');
    out += `  - name: ${scalar(c.name)}\n`;
    for (const [k, v] of c.body) {
      const maps = Array.isArray(v) && v.length > 1 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));
      out += maps ? `    ${k}:\n${v.map((x) => `      - ${flow(x)}\n`).join('')}` : `    ${k}: ${flow(v)}\n`;
    }
    out += `    expect: ${flow(c.expect)}\n\n`;
  }
  return footer === '' ? out : `${out}${commentLines(footer)}`;
}
