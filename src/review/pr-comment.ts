// A report meant as a pull-request comment: GitHub holds 65,536 characters in one. A report is a
// head and blocks in order of importance; whole blocks are cut from the end to stay under
// PR_COMMENT_LIMIT, and a note says what was cut.

/** Characters a report may take: under GitHub's 65,536 for a comment, with room to spare. */
export const PR_COMMENT_LIMIT = 65_000;

/** `head` and as many of `blocks` as fit with the note on the rest (`cutNote(rest)`, given every block's note at most as long as `cutNote(blocks)`'s). */
export function fitComment<B extends { text: string }>(head: string, blocks: readonly B[], cutNote: (cut: readonly B[]) => string, limit = PR_COMMENT_LIMIT): string {
  const whole = head + blocks.map((b) => b.text).join('');
  if (whole.length <= limit) return whole;
  const room = limit - cutNote(blocks).length;
  let text = head;
  let kept = 0;
  while (text.length + blocks[kept]!.text.length <= room) text += blocks[kept++]!.text;
  return text + cutNote(blocks.slice(kept));
}
