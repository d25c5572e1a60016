// Numbers as people read them in our text output: whole numbers with their digits grouped in threes
// (1,234,567), exactly as `toLocaleString('en-US')` writes them, without Intl, whose first use costs
// a command 12 ms of start-up (loading the locale data). Imports nothing.

/** `v` with its digits grouped in threes, as `v.toLocaleString('en-US')` writes it. */
export function groupDigits(v: number): string {
  if (!Number.isSafeInteger(v)) return v.toLocaleString('en-US');
  const digits = String(Math.abs(v));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return v < 0 || Object.is(v, -0) ? `-${out}` : out;
}

/** A count and its noun, as people write them: "1 packet", "0 packets", "4,526 packets" (`plural`: for nouns not made plural by an s). */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${groupDigits(count)} ${count === 1 ? noun : plural}`;
}
