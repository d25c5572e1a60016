// ATP model options read from a JSON file (`--atp-options FILE`, or a file the library is given):
// every problem is one UserError naming the file.
import { readFileSync } from 'node:fs';
import { parseJson } from '../config/json.js';
import { attachSource, InputError, UserError } from '../errors.js';
import { parseAtpOptions, type AtpOptionsInput } from './options.js';

/** Reads and checks the ATP options in `file`. */
export function readAtpOptionsFile(file: string): AtpOptionsInput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, err, 'cannot read the ATP options');
  }
  let options: AtpOptionsInput;
  try {
    options = parseJson(text) as AtpOptionsInput;
  } catch (err) {
    throw new UserError((err as Error).message, { source: file });
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new UserError('expected a JSON object of ATP options', { source: file });
  try {
    parseAtpOptions(options);
  } catch (err) {
    throw attachSource(err, file);
  }
  return options;
}
