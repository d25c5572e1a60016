// What commands read from standard input besides captures: an expression given as an argument or on
// stdin, and the text of a configuration or a suite named "-" (then parsed as a file's would be).

/** All of standard input, as UTF-8 text. */
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The argument, or stdin when it is missing or "-" (without one trailing newline). */
export async function readExpression(arg: string | undefined): Promise<string> {
  if (arg !== undefined && arg !== '-') return arg;
  return (await readStdinText()).replace(/\r?\n$/, '');
}
