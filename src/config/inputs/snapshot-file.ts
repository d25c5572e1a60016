// edgesim's own snapshot JSON (and an `edgesim export` file, which is one): read as it is.
import { UserError } from '../../errors.js';
import { parseJson } from '../json.js';
import { jsonRuleLocator } from '../location.js';
import type { ConfigurationDocument } from './document.js';

export function readSnapshotDocument(text: string, file: string): ConfigurationDocument {
  return { document: parseJsonFile(text, file), origin: (path) => path, locate: jsonRuleLocator(text, file), notes: [] };
}

/** JSON text of `file`; a syntax error is one line naming the file, the line and the column. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    throw new UserError((err as Error).message, { source: file });
  }
}
