// `edgesim explain`, run: the engine's view of one expression, or its error message (exit 1); with
// --bpf or --display-filter, the expression's exact equivalent for tcpdump or tshark, or why there
// is none (exit 1).
import { UsageError, UserError } from '../../../errors.js';
import { explain, FilterError, hintFor, listWarnings, parse, settingsFor } from '../../../lang/index.js';
import { toBpf } from '../../../translate/bpf.js';
import { toDisplayFilter } from '../../../translate/display-filter.js';
import { Untranslatable } from '../../../translate/walk.js';
import { readExpression } from '../../input.js';
import { SCHEMES, type SchemeName } from '../../options.js';
import { warn } from '../../output.js';

export interface ExplainFlags {
  scheme: SchemeName;
  bpf?: boolean;
  displayFilter?: boolean;
}

function printError(err: FilterError): void {
  process.stdout.write(err.message.endsWith('\n') ? err.message : `${err.message}\n`);
  process.exitCode = 1;
}

export async function run(arg: string | undefined, flags: ExplainFlags): Promise<void> {
  const expr = await readExpression(arg);
  if (flags.bpf || flags.displayFilter) {
    if (flags.bpf && flags.displayFilter) throw new UsageError('give --bpf or --display-filter, not both');
    if (flags.scheme !== 'firewall') throw new UsageError('--bpf and --display-filter translate firewall-rule expressions (--scheme firewall)');
    const target = flags.bpf ? 'BPF' : 'display filter';
    try {
      process.stdout.write(`${flags.bpf ? toBpf(expr) : toDisplayFilter(expr)}\n`);
    } catch (err) {
      if (err instanceof FilterError) return printError(err);
      if (err instanceof Untranslatable) throw new UserError(`no exact ${target}: ${err.reason}`);
      throw err;
    }
    return;
  }
  const { scheme, limits } = settingsFor(SCHEMES[flags.scheme]);
  try {
    process.stdout.write(explain(expr, scheme, limits));
    for (const warning of listWarnings(parse(expr, scheme, limits))) warn(warning);
  } catch (err) {
    if (!(err instanceof FilterError)) throw err;
    printError(err);
    const hint = hintFor(expr, err, scheme);
    if (hint) process.stdout.write(`${hint}\n`);
  }
}
