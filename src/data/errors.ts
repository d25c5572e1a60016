/**
 * A problem with a data file the user gave or the installation ships (GeoIP/ASN database, list
 * feed, data-center table). The message names the file (and line, for text files) and what is
 * wrong; `exitCode` 1 marks it as the user's input, not an internal failure.
 */
export class DataError extends Error {
  override name = 'DataError';
  readonly exitCode = 1;
}
