// The one error type route handlers throw, and the table of every error condition the API can
// report: each with a stable numeric code (>= 1000, as the vendor's) and its HTTP status. One place
// (server.ts's error handler) turns an ApiError into the `{result, success, errors, messages}`
// envelope, so handlers never build error responses themselves.
import { dottedPath, jsonPointer, MAX_ISSUES, type Issue, type IssueKind } from '../config/schema.js';

/** Every error condition: its code (stable; clients may rely on it) and HTTP status. */
export const CONDITIONS = {
  invalid_json: { code: 1000, status: 400 },
  invalid_type: { code: 1001, status: 400 },
  required: { code: 1002, status: 400 },
  unknown_key: { code: 1003, status: 400 },
  invalid_value: { code: 1004, status: 400 },
  too_long: { code: 1005, status: 400 },
  too_many: { code: 1006, status: 400 },
  invalid_address: { code: 1007, status: 400 },
  invalid_expression: { code: 1008, status: 400 },
  conflict: { code: 1009, status: 400 },
  unknown_reference: { code: 1010, status: 400 },
  invalid_query: { code: 1011, status: 400 },
  invalid_position: { code: 1012, status: 400 },
  limit_exceeded: { code: 1013, status: 400 },
  invalid_identifier: { code: 1014, status: 400 },
  missing_body: { code: 1015, status: 400 },
  more_errors: { code: 1016, status: 400 },
  invalid_url: { code: 1017, status: 400 },
  /** the vendor's own code: `logging` on a rule that is not `skip` */
  logging_not_allowed: { code: 20018, status: 400 },
  missing_credentials: { code: 1100, status: 401 },
  bad_credentials: { code: 1101, status: 403 },
  not_permitted: { code: 1102, status: 403 },
  not_found: { code: 1200, status: 404 },
  route_not_found: { code: 1201, status: 404 },
  method_not_allowed: { code: 1202, status: 405 },
  payload_too_large: { code: 1203, status: 413 },
  uri_too_long: { code: 1205, status: 414 },
  unsupported_media_type: { code: 1204, status: 415 },
  internal: { code: 1500, status: 500 },
  storage_failure: { code: 1501, status: 500 },
} as const;

export type Condition = keyof typeof CONDITIONS;

/** One entry of the envelope's `errors`. */
export interface ErrorItem {
  code: number;
  message: string;
  source?: { pointer: string };
}

const ISSUE_CONDITIONS: Record<IssueKind, Condition> = {
  invalid_type: 'invalid_type',
  required: 'required',
  unknown_key: 'unknown_key',
  invalid_value: 'invalid_value',
  too_long: 'too_long',
  too_many: 'too_many',
  invalid_address: 'invalid_address',
  invalid_expression: 'invalid_expression',
  conflict: 'conflict',
  not_found: 'unknown_reference',
};

/** An error for the API client; `status` is the HTTP status of the first error. */
export class ApiError extends Error {
  readonly status: number;
  readonly items: ErrorItem[];
  /** extra response headers (e.g. Allow on a 405) */
  readonly headers: Record<string, string>;

  constructor(condition: Condition, message: string, pointer?: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = CONDITIONS[condition].status;
    const item: ErrorItem = { code: CONDITIONS[condition].code, message };
    if (pointer !== undefined) item.source = { pointer };
    this.items = [item];
    this.headers = headers;
  }

  /**
   * A 400 listing validation issues: the first MAX_ISSUES, then one item counting the rest (the
   * `omitted` ones the validator only counted, and any beyond MAX_ISSUES here), so an answer stays
   * small whatever the body. An expression's message is the Rules-language engine's text exactly
   * (as validate-expr returns it); other messages are prefixed with the field's path. Each item's
   * `source.pointer` locates the field within the body. `condition`, when given, is every item's
   * condition instead of the one of its issue's kind.
   */
  static fromIssues(issues: readonly Issue[], omitted = 0, condition?: Condition): ApiError {
    const conditionOf = (issue: Issue): Condition => condition ?? ISSUE_CONDITIONS[issue.kind];
    const [first, ...others] = issues.slice(0, MAX_ISSUES);
    const err = new ApiError(conditionOf(first), issueMessage(first), jsonPointer(first.path));
    for (const issue of others) {
      err.items.push({ code: CONDITIONS[conditionOf(issue)].code, message: issueMessage(issue), source: { pointer: jsonPointer(issue.path) } });
    }
    const rest = Math.max(0, issues.length - MAX_ISSUES) + omitted;
    if (rest > 0) err.items.push({ code: CONDITIONS.more_errors.code, message: `and ${rest} more problem${rest === 1 ? '' : 's'} of the same request` });
    return err;
  }
}

function issueMessage(issue: Issue): string {
  return issue.kind === 'invalid_expression' ? issue.message : `${dottedPath(issue.path)}: ${issue.message}`;
}
