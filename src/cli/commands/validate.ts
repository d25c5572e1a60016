// `edgesim validate EXPR`: is this a valid firewall rule (or, with --scheme filter, ATP filter)
// expression? Prints `valid` (exit 0) or the engine's error message (exit 1) on stdout, so
// scripts can diff it; --json prints the validate-expr envelope instead, --legacy the older
// documented message shape. EXPR `-` or none reads the expression from stdin (one trailing
// newline is dropped). The --scheme option and the stdin reading are shared with `explain`.
import { Option, type Command } from 'commander';
import { validateExprEnvelope } from '../../api/envelope.js';
import type { ExpressionKind } from '../../lang/index.js';

export const SCHEME_KINDS: Record<string, ExpressionKind> = { firewall: 'rule', filter: 'filter' };

export function schemeOption(): Option {
  return new Option('--scheme <scheme>', 'firewall (rule expressions) or filter (ATP filter expressions)')
    .choices(Object.keys(SCHEME_KINDS))
    .default('firewall');
}

/** The argument, or stdin when it is missing or "-" (without one trailing newline). */
export async function readExpression(arg: string | undefined): Promise<string> {
  if (arg !== undefined && arg !== '-') return arg;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

interface Options {
  scheme: string;
  json?: boolean;
  legacy?: boolean;
}

export function register(program: Command): void {
  program
    .command('validate')
    .description('check a Rules-language expression; prints "valid" or the parse error (exit 1)')
    .argument('[expression]', 'the expression; "-" or nothing reads it from stdin')
    .addOption(schemeOption())
    .option('--json', 'print the validate-expr API envelope')
    .option('--legacy', 'use the older documented message shape (expression in backticks)')
    .action(async (arg: string | undefined, opts: Options) => {
      const { legacyMessage, validateExpression } = await import('../../lang/index.js');
      const expr = await readExpression(arg);
      const err = validateExpression(expr, SCHEME_KINDS[opts.scheme]);
      const message = err && (opts.legacy ? legacyMessage(expr, err) : err.message);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(validateExprEnvelope(message))}\n`);
      } else {
        process.stdout.write(message === null ? 'valid\n' : message.endsWith('\n') ? message : `${message}\n`);
      }
      if (message !== null) process.exitCode = 1;
    });
}
