// A report meant as a pull-request comment: GitHub holds 65,536 characters in one. A report is a
// head and blocks in order of importance; whole blocks are cut from the end to stay under
// PR_COMMENT_LIMIT, and a note says what was cut. A head that does not fit by itself (thousands of
// warnings, a file name of 70,000 characters) is cut at a line end to half the room, with a note of
// its own, so that the report is always under the limit and its first blocks are still there.

/** Characters a report may take: under GitHub's 65,536 for a comment, with room to spare. */
export const PR_COMMENT_LIMIT = 65_000;

const headNote = (lines: number): string => `_… ${lines} more ${lines === 1 ? 'line' : 'lines'} of this heading cut to keep the report under the comment limit._\n`;

/** `line` cut to at most `room` characters (never inside an escape, an entity or a surrogate pair), ending with `…`. */
function cutLine(line: string, room: number): string {
  let kept = line.slice(0, Math.max(0, room - 1));
  kept = kept.replace(/&[#\w]*$/, '').replace(/[\uD800-\uDBFF]$/, '');
  const backslashes = /\\*$/.exec(kept)![0].length;
  if (backslashes % 2 === 1) kept = kept.slice(0, -1);
  return `${kept}…`;
}

/** `head` cut at line ends (its first line at a character) so that it takes at most `room` characters. */
function fitHead(head: string, room: number): string {
  if (head.length <= room) return head;
  const lines = head.replace(/\n$/, '').split('\n');
  let text = '';
  let kept = 0;
  while (kept < lines.length && text.length + lines[kept]!.length + 1 + headNote(lines.length - kept - 1).length <= room) text += `${lines[kept++]!}\n`;
  if (kept === 0) {
    const note = headNote(lines.length - 1);
    text = `${cutLine(lines[0]!, room - note.length - 1)}\n`;
    kept = 1;
  }
  return kept === lines.length ? text : `${text}${headNote(lines.length - kept)}`;
}

/** `head` and as many of `blocks` as fit with the note on the rest (`cutNote(rest)`, given every block's note at most as long as `cutNote(blocks)`'s). */
export function fitComment<B extends { text: string }>(head: string, blocks: readonly B[], cutNote: (cut: readonly B[]) => string, limit = PR_COMMENT_LIMIT): string {
  const whole = head + blocks.map((b) => b.text).join('');
  if (whole.length <= limit) return whole;
  const room = limit - (blocks.length === 0 ? 0 : cutNote(blocks).length);
  // a head that does not fit alone takes half the room at most: the blocks are what the report is for
  let text = head.length <= room ? head : fitHead(head, blocks.length === 0 ? room : Math.floor(room / 2));
  let kept = 0;
  while (kept < blocks.length && text.length + blocks[kept]!.text.length <= room) text += blocks[kept++]!.text;
  return kept === blocks.length ? text : text + cutNote(blocks.slice(kept));
}
