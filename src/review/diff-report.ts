// `edgesim diff --format markdown`: what a configuration change does to a capture, as a pull-request
// comment (and the job summary). Verdict changes come first, then the changes of attribution only
// (same verdict, another deciding rule or stage); each group with its packets, its share of the
// capture, the place of the rule in the user's file, and its first frames with their 5-tuples.
// Whole groups are cut from the end to fit a comment (pr-comment.ts), saying how many groups and
// packets were cut.
import type { SourceLocation } from '../config/location.js';
import { counted, groupDigits } from '../numbers.js';
import { frameName, type ChangeGroup, type Decision, type DiffResult } from '../sim/diff.js';
import { share } from '../sim/outputs/format.js';
import type { RefLocator, RuleLabel } from '../sim/rule-places.js';
import { markdownTable, markdownText } from './markdown.js';
import { fitComment, PR_COMMENT_LIMIT } from './pr-comment.js';

/** The two configurations of a diff: their files as the user named them, and where their rules are written. */
export interface DiffSides {
  before: { name: string; locate: RefLocator; label?: RuleLabel };
  after: { name: string; locate: RefLocator; label?: RuleLabel };
}

export function place(at: SourceLocation): string {
  return at.line === undefined ? `${at.file}${at.address === undefined ? '' : ` ${at.address}`}` : `${at.file}:${at.line}`;
}

function sideText(d: Decision, side: DiffSides['before']): string {
  const by = d.rule === null ? d.stage : (side.label?.(d.rule) ?? d.rule);
  if (by === null) return `${d.verdict}, no rule`;
  const at = d.rule === null ? undefined : side.locate(d.rule);
  return `${d.verdict} by ${markdownText(by)}${at === undefined ? '' : ` (${markdownText(place(at))})`}`;
}

const cell = (v: string | number | null): string => (v === null ? '-' : markdownText(String(v)));

function groupLines(g: ChangeGroup, r: DiffResult, sides: DiffSides): string[] {
  const rows = g.frames.map((_frame, i) => {
    const f = g.flows[i]!;
    return [cell(frameName(g, i)), cell(f.src), cell(f.dst), cell(f.proto), cell(f.sport), cell(f.dport)];
  });
  const more = g.packets - g.frames.length;
  return [
    `**${sideText(g.before, sides.before)} → ${sideText(g.after, sides.after)}**: ${counted(g.packets, 'packet')}, ${share(g.packets, r.packets)} of the capture`,
    '',
    ...markdownTable(['Frame', 'Source', 'Destination', 'Protocol', 'Source port', 'Destination port'], rows),
    ...(more > 0 ? ['', `and ${counted(more, 'more packet')}`] : []),
    '',
  ];
}

interface Block {
  text: string;
  group: ChangeGroup;
}

/** The groups of one kind as blocks, the section's heading on its first. */
function section(title: string, groups: readonly ChangeGroup[], r: DiffResult, sides: DiffSides): Block[] {
  const packets = groups.reduce((n, g) => n + g.packets, 0);
  const heading = [`#### ${title}: ${counted(packets, 'packet')}, ${share(packets, r.packets)} of the capture, in ${counted(groups.length, 'group')}`, ''];
  return groups.map((group, i) => ({ text: `${[...(i === 0 ? heading : []), ...groupLines(group, r, sides)].join('\n')}\n`, group }));
}

function cutNote(cut: readonly Block[]): string {
  const packets = cut.reduce((n, b) => n + b.group.packets, 0);
  return `\n_${counted(cut.length, 'more group')} (${counted(packets, 'packet')}) cut to keep this report under ${groupDigits(PR_COMMENT_LIMIT)} characters; \`--format json\` lists every group._\n`;
}

export function diffMarkdown(r: DiffResult, sides: DiffSides, warnings: readonly string[] = []): string {
  const head = [
    r.changed === 0
      ? `### edgesim diff: no change`
      : `### edgesim diff: ${groupDigits(r.changed)} of ${counted(r.packets, 'packet')} (${share(r.changed, r.packets)}) decided differently`,
    '',
    `Capture ${markdownText(r.capture)}: ${markdownText(sides.before.name)} → ${markdownText(sides.after.name)}${r.changed === 0 ? `; each of ${counted(r.packets, 'packet')} is decided the same way.` : '.'}`,
    ...warnings.map((w) => `- warning: ${markdownText(w)}`),
    '',
  ];
  const blocks = [
    ...section('Verdict changes', r.groups.filter((g) => g.before.verdict !== g.after.verdict), r, sides),
    ...section('Same verdict, another deciding rule or stage', r.groups.filter((g) => g.before.verdict === g.after.verdict), r, sides),
  ];
  return fitComment(`${head.join('\n')}\n`, blocks, cutNote);
}
