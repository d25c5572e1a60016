// Building HTML text safely: every piece of text that came from a capture, a configuration or a
// saved summary (rule descriptions and expressions, file names, lint messages) passes through
// `text()` before it reaches the page, and data handed to the page's script is embedded so that no
// string in it can close the <script> element that carries it. Should anything slip through all
// the same, the page's policy runs only the scripts and styles whose hashes it lists (`sourceHash`).
import { createHash } from 'node:crypto';
import { printable } from '../terminal-text.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use in element content and in quoted attribute values; control characters shown as the text outputs show them (terminal-text.ts). */
export function text(value: unknown): string {
  return printable(String(value)).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * JSON for a `<script type="application/json">` element: `<` is written as \u003c, so neither
 * `</script>` nor `<!--` can appear, and U+2028/2029 are escaped as well; JSON.parse of the
 * element's text gives the value back unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Script or style source to inline: a closing tag inside it (in a string) is broken up. */
export function inlineSource(source: string, tag: 'script' | 'style'): string {
  return source.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
}

/** A Content-Security-Policy source that allows exactly this inline script or style. */
export function sourceHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

const FORMATS = new Map<number, Intl.NumberFormat>();

/**
 * A number for people: thousands separated, at most `digits` decimals. One formatter per `digits`:
 * toLocaleString builds a new one on every call (tens of microseconds; seconds for 100,000 rules).
 */
export function num(v: number, digits = 0): string {
  let format = FORMATS.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
    FORMATS.set(digits, format);
  }
  return format.format(v);
}

/** The largest of `values`, at least `floor`: Math.max(...values) overflows the stack past ~150,000 values. */
export function largest(values: readonly number[], floor = -Infinity): number {
  let out = floor;
  for (const v of values) if (v > out) out = v;
  return out;
}

/** part of whole as a percentage ('–' when whole is 0). */
export function pct(part: number, whole: number): string {
  if (whole === 0) return '–';
  const p = (100 * part) / whole;
  return `${p === 0 || p === 100 ? p.toFixed(0) : p < 0.1 ? p.toFixed(2) : p.toFixed(1)}%`;
}

/**
 * A horizontal bar in a table cell: `value` against `max`, with the share of `whole` beside it. The
 * bar is an SVG whose size and colour are attributes, not a style attribute, which the page's
 * Content-Security-Policy does not allow.
 */
export function barCell(value: number, max: number, whole: number, color: string): string {
  const width = max > 0 && value > 0 ? Math.max(0.5, (65 * value) / max) : 0;
  const bar = width > 0 ? `<svg width="${width.toFixed(2)}%" height="12" aria-hidden="true"><rect width="100%" height="100%" rx="2" fill="${text(color)}"/></svg>` : '';
  return `<td class="bar">${bar}<em>${pct(value, whole)}</em></td>`;
}

/** A data table that a chart's readers can open instead of the picture. */
export function fallbackTable(summary: string, head: string[], rows: string[][]): string {
  const th = head.map((h, i) => `<th${i > 0 ? ' class="n"' : ''} scope="col">${h}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td class="n">${c}</td>`)).join('')}</tr>`).join('');
  return `<details><summary>${summary}</summary><table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></details>`;
}
