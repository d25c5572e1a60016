// Hover inside an expression: a field's meaning, type, unit and range (the field registry's words),
// a function's signature, a list's kind and size (the document's list, or the bundled sample of a
// managed one), a country, data center or region value in words; anywhere else in a rule, what the
// analysis proves of the whole rule: whether it is reached, a packet it decides, and the boxes of
// packets it decides, in words (the analysis's pinning of that one rule, asked of the worker).
import type { PinnedRule } from '../../analysis/index.js';
import { printable } from '../../terminal-text.js';
import type { DocumentModel, RuleSite } from '../document.js';
import { fieldEntry, fieldMarkdown, functionMarkdown, functionsOf, managedListSize, valueWords } from '../language/vocabulary.js';
import { expressionAt, wordAt } from './context.js';

export interface HoverText {
  start: number;
  end: number;
  markdown: string;
}

/** What the analysis says of a rule (asked of the worker); undefined when it cannot say. */
export type Describe = (rule: RuleSite) => Promise<PinnedRule | undefined>;

const VERB: Readonly<Record<string, string>> = { block: 'drops', skip: 'passes (skips the rest of the ruleset)', log: 'logs (and goes on)' };

const packet = (w: object): string => `\`${printable(JSON.stringify(w))}\``;

/** A space of packets in words: `ip.src in {…} and tcp.dstport in {22}`. */
function spaceWords(space: object): string {
  const parts = Object.entries(space).map(([field, values]) => (Array.isArray(values) ? `${field} in {${values.join(' ')}}` : `${field} == ${JSON.stringify(values)}`));
  return parts.length === 0 ? 'every packet' : parts.join(' and ');
}

/** The analysis's pinning of a rule in words. */
export function ruleWords(p: PinnedRule): string {
  const head = `**${printable(p.ref)}** (${p.action})`;
  if (p.witness === null) return `${head}: ${p.why ?? 'decides no packet'}`;
  const verb = VERB[p.action] ?? p.action;
  const lines = [`${head} ${verb} packets it is the first to match, for example ${packet(p.witness)}`];
  if (p.spaces.length > 0) {
    lines.push('', `Proved over every packet, it decides:`);
    for (const s of p.spaces) lines.push(`- ${printable(spaceWords(s.space))} → ${s.verdict}${s.rule === undefined ? ' (with the rules before it)' : ''}`);
  } else lines.push('', 'Its region is not written out here: more than eight boxes, parts the analysis does not model, or earlier rules that take part of it.');
  return lines.join('\n');
}

/** The hover at a document offset. */
export async function hoverAt(model: DocumentModel, offset: number, describe: Describe): Promise<HoverText | undefined> {
  const at = expressionAt(model, offset);
  if (at === undefined) return undefined;
  const { e, index } = at;
  const word = wordAt(e.value, index);
  const range = (w: { start: number; end: number }) => ({ start: e.at(w.start), end: e.at(w.end) });
  if (word !== undefined) {
    if (word.text.startsWith('$')) {
      const name = word.text.slice(1);
      const own = model.lists.find((l) => l.name === name);
      const size = managedListSize(name);
      const markdown = own !== undefined
        ? `**$${name}** — ${own.kind} list of this configuration, ${own.items} item${own.items === 1 ? '' : 's'}`
        : size !== undefined
          ? `**$${name}** — managed list (ip); the bundled sample holds ${size} entries (\`--lists DIR\` replaces it)`
          : `**$${name}** — no list of this name in this document`;
      return { ...range(word), markdown };
    }
    const field = fieldEntry(word.text, e.kind);
    if (field !== undefined) return { ...range(word), markdown: fieldMarkdown(field) };
    const fn = functionsOf(e.kind).find((f) => f.name === word.text);
    if (fn !== undefined) return { ...range(word), markdown: functionMarkdown(fn) };
    if (word.text.startsWith('"')) {
      const compared = /([A-Za-z_][A-Za-z0-9_.]*)\s*(?:==|eq|!=|ne|in\s*\{[^}]*)\s*$/.exec(e.value.slice(0, word.start));
      const words = compared === null ? undefined : valueWords(compared[1]!, word.text.replace(/^"|"$/g, ''));
      if (words !== undefined) return { ...range(word), markdown: `${word.text}: ${words}` };
    }
  }
  const rule = model.rules.find((r) => r.expression === e);
  if (rule === undefined || e.kind !== 'rule') return undefined;
  const pinned = await describe(rule);
  return pinned === undefined ? undefined : { start: e.start, end: e.end, markdown: ruleWords(pinned) };
}
