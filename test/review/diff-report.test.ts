// The pull-request report of a capture diff when the change is huge: under 65,000 characters, verdict
// changes kept before attribution-only changes, and a note that counts exactly the groups and
// packets cut; fitting a comment in general (a property).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffMarkdown } from '../../src/review/diff-report.js';
import { fitComment, PR_COMMENT_LIMIT } from '../../src/review/pr-comment.js';
import type { ChangeGroup, DiffResult } from '../../src/sim/diff.js';
import type { CaptureInfo } from '../../src/capture/reader.js';

const NOWHERE = (): undefined => undefined;
const SIDES = { before: { name: 'main.json', locate: NOWHERE }, after: { name: 'pr.json', locate: (ref: string) => ({ file: 'pr.json', line: Number(ref.slice(5)) + 10 }) } };

/** `n` groups, largest first as diffCapture orders them, every third changing its verdict. */
function hugeDiff(n: number): DiffResult {
  const groups: ChangeGroup[] = Array.from({ length: n }, (_, i) => ({
    before: { verdict: 'pass', rule: null, stage: null },
    after: { verdict: i % 3 === 0 ? 'drop' : 'pass', rule: `rule-${i}`, stage: null },
    packets: 10 * n - i,
    frames: [1, 2, 3, 4, 5].map((k) => 10 * i + k),
    flows: [1, 2, 3, 4, 5].map((k) => ({ src: `198.51.100.${k}`, dst: '2001:db8::1', proto: 'tcp', sport: 40000 + i, dport: 443 })),
  }));
  const changed = groups.reduce((s, g) => s + g.packets, 0);
  return { capture: 'big.pcap', packets: 2 * changed, changed, groups, info: { warnings: [] } as unknown as CaptureInfo };
}

describe('diffMarkdown on a huge diff', () => {
  const r = hugeDiff(3000);
  const md = diffMarkdown(r, SIDES);
  const headlines = md.split('\n').filter((l) => l.startsWith('**'));
  const shown = headlines.map((l) => Number(/rule-(\d+)/.exec(l)![1]));

  it('stays under the limit and says how many groups and packets it cut', () => {
    expect(md.length).toBeLessThanOrEqual(PR_COMMENT_LIMIT);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(r.groups.length);
    const cut = r.groups.filter((_, i) => !shown.includes(i));
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      `_${cut.length.toLocaleString('en-US')} more groups (${cut.reduce((s, g) => s + g.packets, 0).toLocaleString('en-US')} packets) cut to keep this report under 65,000 characters; \`--format json\` lists every group._`,
    );
  });

  it('keeps verdict changes first, largest first, and cuts from the end', () => {
    const verdictChanges = r.groups.map((g, i) => [g, i] as const).filter(([g]) => g.before.verdict !== g.after.verdict).map(([, i]) => i);
    const rest = r.groups.map((_, i) => i).filter((i) => !verdictChanges.includes(i));
    expect(shown).toEqual([...verdictChanges, ...rest].slice(0, shown.length));
    expect(headlines[0]).toBe(`**pass, no rule → drop by rule-0 (pr.json:10)**: 30,000 packets, ${((100 * 30000) / r.packets).toFixed(2)}% of the capture`);
  });
});

describe('fitComment', () => {
  it('is the head, then the first blocks in order, then the note on the rest; never over the limit when head and note fit', () => {
    const note = (cut: readonly { text: string }[]): string => `\n${cut.length} cut\n`;
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.array(fc.string({ maxLength: 60 }).map((text) => ({ text })), { maxLength: 30 }), fc.nat({ max: 800 }), (head, blocks, room) => {
        const limit = head.length + note(blocks).length + room;
        const out = fitComment(head, blocks, note, limit);
        expect(out.length).toBeLessThanOrEqual(limit);
        let kept = 0;
        let at = head.length;
        while (kept < blocks.length && out.startsWith(blocks[kept]!.text, at) && out.slice(0, at + blocks[kept]!.text.length) === head + blocks.slice(0, kept + 1).map((b) => b.text).join('')) at += blocks[kept++]!.text.length;
        const all = head + blocks.map((b) => b.text).join('');
        if (all.length <= limit) expect(out).toBe(all);
        else {
          expect(out.endsWith(note(blocks.slice(kept)))).toBe(true);
          // not one more block would have fitted
          expect(at + blocks[kept]!.text.length + note(blocks).length).toBeGreaterThan(limit);
        }
      }),
    );
  });
});

describe('a report whose head alone passes the limit (issue 34)', () => {
  it('capture diff: thousands of warnings are cut at a line end with a note, the groups still follow; no crash', () => {
    const r = hugeDiff(3);
    const warnings = Array.from({ length: 3000 }, (_, i) => `frame ${i + 1}: truncated: captured 60 of 1514 bytes`);
    const md = diffMarkdown(r, SIDES, warnings);
    expect(md.length).toBeLessThanOrEqual(PR_COMMENT_LIMIT);
    expect(md.split('\n')[0]).toBe(`### edgesim diff: ${r.changed} of ${r.packets} packets (50.00%) decided differently`);
    expect(md).toMatch(/\n_… [\d]+ more lines of this heading cut to keep the report under the comment limit\._\n/);
    // every line kept is a whole line of the head
    for (const line of md.split('\n').filter((l) => l.startsWith('- warning: '))) expect(warnings.map((w) => `- warning: ${w}`)).toContain(line);
    // the groups fit in the half of the room the head leaves them
    expect(md.split('\n').filter((l) => l.startsWith('**'))).toHaveLength(r.groups.length);
    expect(md.length).toBeGreaterThan(PR_COMMENT_LIMIT / 2);
  });

  it('any head, any blocks: never over the limit, and the head keeps its first line (cut if it must be)', () => {
    const note = (cut: readonly { text: string }[]): string => `\n${cut.length} cut\n`;
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }).map((l) => l.replace(/\n/g, ' ')), { minLength: 1, maxLength: 40 }), fc.array(fc.string({ maxLength: 60 }).map((text) => ({ text })), { maxLength: 10 }), fc.integer({ min: 200, max: 2000 }), (lines, blocks, limit) => {
        const head = `${lines.join('\n')}\n`;
        const out = fitComment(head, blocks, note, limit);
        expect(out.length).toBeLessThanOrEqual(limit);
        const first = lines[0]!;
        expect(out.startsWith(first) || (out.startsWith(first.slice(0, out.indexOf('…'))) && out.indexOf('…') < first.length)).toBe(true);
      }),
    );
  });
});
