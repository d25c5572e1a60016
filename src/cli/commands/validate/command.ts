// `edgesim validate EXPR`: is this a valid firewall rule (or, with --scheme filter, ATP filter)
// expression? Prints `valid` (exit 0) or the engine's error message (exit 1) on stdout, so scripts
// can diff it; --json prints the validate-expr envelope instead, --legacy the older documented
// message shape. EXPR `-` or none reads the expression from stdin.
import type { Command } from 'commander';
import { schemeOption } from '../../options.js';
import type { ValidateFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('validate')
    .description('check a Rules-language expression; prints "valid" or the parse error (exit 1)')
    .argument('[expression]', 'the expression; "-" or nothing reads it from stdin')
    .addOption(schemeOption())
    .option('--json', 'print the validate-expr API envelope')
    .option('--legacy', 'use the older documented message shape (expression in backticks)')
    .addHelpText(
      'after',
      `
Examples:
  edgesim validate 'tcp.dstport in {22 80 443} and ip.src in {192.0.2.0/24}'
  edgesim validate --scheme filter 'ip.dst in {203.0.113.0/24}'
  echo 'ip.src == 34' | edgesim validate --json`,
    )
    .action(async (arg: string | undefined, flags: ValidateFlags) => (await import('./action.js')).run(arg, flags));
}
