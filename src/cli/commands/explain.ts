// `edgesim explain EXPR`: like Wireshark's dftest — the tokens with byte offsets, the typed
// syntax tree, and what each comparison compiles to. An invalid expression prints the engine's
// error message on stdout and exits 1, as `validate` does.
import type { Command } from 'commander';
import { readExpression, schemeOption, SCHEME_KINDS } from './validate.js';

export function register(program: Command): void {
  program
    .command('explain')
    .description('show the tokens, typed syntax tree and compiled plan of a Rules-language expression')
    .argument('[expression]', 'the expression; "-" or nothing reads it from stdin')
    .addOption(schemeOption())
    .action(async (arg: string | undefined, opts: { scheme: string }) => {
      const { explain, FilterError, settingsFor } = await import('../../lang/index.js');
      const expr = await readExpression(arg);
      const { scheme, limits } = settingsFor(SCHEME_KINDS[opts.scheme]);
      try {
        process.stdout.write(explain(expr, scheme, limits));
      } catch (err) {
        if (!(err instanceof FilterError)) throw err;
        process.stdout.write(err.message.endsWith('\n') ? err.message : `${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
