import { UserError } from '../../errors.js';

/** A flow spec that is not valid; the message names the bad key. */
export class SpecError extends UserError {
  override name = 'SpecError';
}
