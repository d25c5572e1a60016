// `edgesim explain`, run: the engine's view of one expression, or its error message (exit 1).
import { explain, FilterError, hintFor, settingsFor } from '../../../lang/index.js';
import { readExpression } from '../../input.js';
import { SCHEMES, type SchemeName } from '../../options.js';

export interface ExplainFlags {
  scheme: SchemeName;
}

export async function run(arg: string | undefined, flags: ExplainFlags): Promise<void> {
  const expr = await readExpression(arg);
  const { scheme, limits } = settingsFor(SCHEMES[flags.scheme]);
  try {
    process.stdout.write(explain(expr, scheme, limits));
  } catch (err) {
    if (!(err instanceof FilterError)) throw err;
    process.stdout.write(err.message.endsWith('\n') ? err.message : `${err.message}\n`);
    const hint = hintFor(expr, err, scheme);
    if (hint) process.stdout.write(`${hint}\n`);
    process.exitCode = 1;
  }
}
