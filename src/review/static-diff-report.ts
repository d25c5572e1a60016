// `edgesim diff --static --format markdown`: the classes of packets two snapshots' firewalls decide
// differently, as a pull-request comment: verdict changes first, then the classes that keep their
// verdict but are decided by another rule, then the pairs of rules the analysis could not settle;
// each with the rules' places in the files and a witness packet. Cut to fit a comment (pr-comment.ts).
import type { Comparison, Difference, Unsettled } from '../analysis/index.js';
import { counted, groupDigits } from '../numbers.js';
import { place, type DiffSides } from './diff-report.js';
import { markdownText } from './markdown.js';
import { fitComment, PR_COMMENT_LIMIT } from './pr-comment.js';

function sideText(s: Difference['before'], side: DiffSides['before']): string {
  if (s.rule === null) return `${s.verdict}, no rule`;
  const at = side.locate(s.rule);
  return `${s.verdict} by ${markdownText(side.label?.(s.rule) ?? s.rule)}${at === undefined ? '' : ` (${markdownText(place(at))})`}`;
}

function change(d: Difference | Unsettled, sides: DiffSides): string {
  return `**${sideText(d.before, sides.before)} → ${sideText(d.after, sides.after)}**`;
}

function section<T>(title: string, items: readonly T[], line: (item: T) => string): Array<{ text: string }> {
  return items.map((item, i) => ({ text: `${i === 0 ? `\n#### ${title} (${groupDigits(items.length)})\n\n` : ''}- ${line(item)}\n` }));
}

function cutNote(cut: readonly unknown[]): string {
  return `\n_${counted(cut.length, 'more class', 'more classes')} cut to keep this report under ${groupDigits(PR_COMMENT_LIMIT)} characters; \`--format json\` lists them all._\n`;
}

/** `notes`: what reading the configurations said, each a line of the report's head. */
export function staticDiffMarkdown(c: Comparison, sides: DiffSides, notes: readonly string[] = []): string {
  const changes = c.differences.length + c.indeterminate.length;
  const head = `### edgesim diff --static: ${changes === 0 ? 'equivalent' : counted(changes, 'change')}\n\n${markdownText(sides.before.name)} → ${markdownText(sides.after.name)}${
    changes === 0 ? ': every packet is decided the same way, by the same rules.' : ', over every possible packet (firewall stage).'
  }\n${notes.map((n) => `- note: ${markdownText(n)}\n`).join('')}`;
  const witness = (d: Difference): string => `${change(d, sides)}${d.certain ? '' : ' (possibly: unmodelled parts decide)'}: packet ${markdownText(JSON.stringify(d.witness))}`;
  const blocks = [
    ...section('Verdict changes', c.differences.filter((d) => d.verdict_changed), witness),
    ...section('Same verdict, another deciding rule', c.differences.filter((d) => !d.verdict_changed), witness),
    ...section('Not settled (the analysis\'s work limit)', c.indeterminate, (u) => `${change(u, sides)}: ${markdownText(u.reason)}`),
  ];
  return fitComment(head, blocks, cutNote);
}
