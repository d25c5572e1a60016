// `edgesim validate`, run: the engine's verdict on one expression, as text or as the API's envelope,
// then, for a valid expression, a warning on stderr for each `$cf.`/`$svc.` list that is not managed.
import { validateExprEnvelope } from '../../../api/envelope.js';
import { hintFor, legacyMessage, listWarnings, parse, settingsFor, validateExpression } from '../../../lang/index.js';
import { readExpression } from '../../input.js';
import { SCHEMES, type SchemeName } from '../../options.js';
import { warn } from '../../output.js';

export interface ValidateFlags {
  scheme: SchemeName;
  json?: boolean;
  legacy?: boolean;
}

export async function run(arg: string | undefined, flags: ValidateFlags): Promise<void> {
  const expr = await readExpression(arg);
  const { scheme, limits } = settingsFor(SCHEMES[flags.scheme]);
  const err = validateExpression(expr, SCHEMES[flags.scheme]);
  const message = err && (flags.legacy ? legacyMessage(expr, err) : err.message);
  if (flags.json) process.stdout.write(`${JSON.stringify(validateExprEnvelope(message))}\n`);
  else process.stdout.write(message === null ? 'valid\n' : message.endsWith('\n') ? message : `${message}\n`);
  const hint = err && !flags.json && hintFor(expr, err, scheme);
  if (hint) process.stdout.write(`${hint}\n`);
  if (message !== null) process.exitCode = 1;
  else for (const warning of listWarnings(parse(expr, scheme, limits))) warn(warning);
}
