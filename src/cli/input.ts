// What commands read besides captures and snapshots: an expression given as an argument or on stdin.

/** The argument, or stdin when it is missing or "-" (without one trailing newline). */
export async function readExpression(arg: string | undefined): Promise<string> {
  if (arg !== undefined && arg !== '-') return arg;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
