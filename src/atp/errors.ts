import { ConfigItemError } from '../errors.js';

// The one error ATP throws: a configuration item it cannot use (a bad prefix, an unknown mode, a
// filter expression that does not parse, an option out of range). Every message starts with the
// item's path in the snapshot or options object, e.g. `syn_protection.rules[2].mode`, so the user
// can find it; the CLI prints it as is.

/** A snapshot item or option ATP cannot use; `path` locates it (e.g. `prefixes[3].prefix`). */
export class AtpConfigError extends ConfigItemError {
  override name = 'AtpConfigError';
}
