/** A flow spec that is not valid; the message names the bad key. */
export class SpecError extends Error {
  override name = 'SpecError';
}
