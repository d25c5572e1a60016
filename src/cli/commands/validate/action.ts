// `edgesim validate`, run: the engine's verdict on one expression, as text or as the API's envelope.
import { validateExprEnvelope } from '../../../api/envelope.js';
import { hintFor, legacyMessage, settingsFor, validateExpression } from '../../../lang/index.js';
import { readExpression } from '../../input.js';
import { SCHEMES, type SchemeName } from '../../options.js';

export interface ValidateFlags {
  scheme: SchemeName;
  json?: boolean;
  legacy?: boolean;
}

export async function run(arg: string | undefined, flags: ValidateFlags): Promise<void> {
  const expr = await readExpression(arg);
  const err = validateExpression(expr, SCHEMES[flags.scheme]);
  const message = err && (flags.legacy ? legacyMessage(expr, err) : err.message);
  if (flags.json) process.stdout.write(`${JSON.stringify(validateExprEnvelope(message))}\n`);
  else process.stdout.write(message === null ? 'valid\n' : message.endsWith('\n') ? message : `${message}\n`);
  const hint = err && !flags.json && hintFor(expr, err, settingsFor(SCHEMES[flags.scheme]).scheme);
  if (hint) process.stdout.write(`${hint}\n`);
  if (message !== null) process.exitCode = 1;
}
