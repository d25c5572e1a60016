// `edgesim fields`, run: the field reference (src/fields/reference.ts) as an aligned table whose
// meaning column wraps to the terminal's width, or as JSON.
import { UserError } from '../../../errors.js';
import { printable } from '../../../terminal-text.js';
import { FIELD_REFERENCE, type FieldReference } from '../../../fields/reference.js';

export interface FieldsFlags {
  json?: boolean;
}

const HEADINGS = { name: 'FIELD', type: 'TYPE', unit: 'UNIT', meaning: 'MEANING' };

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** The rows as text: three padded columns, then the meaning wrapped under its own column. */
export function fieldTable(rows: readonly FieldReference[], columns: number): string {
  const all = [HEADINGS, ...rows];
  const nameW = Math.max(...all.map((r) => r.name.length));
  const typeW = Math.max(...all.map((r) => r.type.length));
  const unitW = Math.max(...all.map((r) => r.unit.length));
  const indent = nameW + typeW + unitW + 6;
  const meaningW = Math.max(30, columns - indent);
  const out: string[] = [];
  for (const r of all) {
    const [first, ...rest] = wrap(r.meaning, meaningW);
    out.push(`${r.name.padEnd(nameW)}  ${r.type.padEnd(typeW)}  ${r.unit.padEnd(unitW)}  ${first}`.trimEnd());
    for (const line of rest) out.push(`${' '.repeat(indent)}${line}`);
  }
  return `${out.join('\n')}\n`;
}

export async function run(name: string | undefined, flags: FieldsFlags): Promise<void> {
  const rows = name === undefined ? FIELD_REFERENCE : FIELD_REFERENCE.filter((f) => f.name === name || f.name.startsWith(`${name}.`));
  if (rows.length === 0) throw new UserError(`no field named ${printable(String(name))} (edgesim fields lists them all)`);
  if (flags.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else process.stdout.write(fieldTable(rows, process.stdout.isTTY ? process.stdout.columns : 100));
}
