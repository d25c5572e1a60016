import { UserError } from '../errors.js';

/**
 * A problem with a data file the user gave or the installation ships (GeoIP/ASN database, list
 * feed, data-center table). The message names the file (and line, for text files) and what is wrong.
 */
export class DataError extends UserError {
  override name = 'DataError';
}
