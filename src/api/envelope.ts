// The response envelope every endpoint uses: `{result, success, errors, messages}`, plus
// `result_info` on paginated lists. Deletes in Advanced TCP Protection answer without `result`.
import type { ErrorItem } from './errors.js';

export interface Envelope {
  result?: unknown;
  result_info?: unknown;
  success: boolean;
  errors: ErrorItem[] | Array<{ message: string }>;
  messages: unknown[] | null;
}

/** A successful response carrying `result` (and `result_info` when given). */
export function ok(result: unknown, resultInfo?: unknown): Envelope {
  return resultInfo === undefined
    ? { result, success: true, errors: [], messages: [] }
    : { result, result_info: resultInfo, success: true, errors: [], messages: [] };
}

/** A successful response without `result` (ATP deletes). */
export function done(): Envelope {
  return { success: true, errors: [], messages: [] };
}

/** A failed response. */
export function failure(errors: ErrorItem[]): Envelope {
  return { result: null, success: false, errors, messages: [] };
}

/**
 * The validate-expr answer: `message` null for a valid expression. A failure has `messages: null`
 * and an error without a code, as the vendor answers.
 */
export function validateExprEnvelope(message: string | null): { result: null; success: boolean; errors: Array<{ message: string }>; messages: [] | null } {
  return message === null
    ? { result: null, success: true, errors: [], messages: [] }
    : { result: null, success: false, errors: [{ message }], messages: null };
}
