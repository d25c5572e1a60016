// A configuration snapshot from any source (a file, an export, a test) checked against the same
// resource schemas the API enforces, and normalised the way the API stores objects: defaults
// filled (sensitivities medium, rules enabled...), vendor spellings mapped to canonical ones
// (phase magic_transit -> edge_transit). Every problem is reported, each with its JSON path, so a
// broken file is fixed in one pass rather than one error at a time. A rule that uses a list the
// snapshot does not define is one of those problems, as the API refuses it, unless the caller
// reports it itself (lint).
import { ConfigItemError, UserError } from '../errors.js';
import { counted } from '../numbers.js';
import { snapshotListIssues, VOCABULARY } from './checks.js';
import { SNAPSHOT_SCHEMA } from './resources.js';
import { dottedPath, parseWithSchema, type Issue } from './schema.js';
import type { Snapshot } from './snapshot.js';

const MAX_LISTED = 20;

/** A snapshot that does not validate; `issues` holds every problem, the message lists them. */
export class SnapshotError extends UserError {
  override name = 'SnapshotError';

  constructor(readonly issues: Issue[], readonly file?: string, readonly omitted = 0) {
    // each line carries the file already (an expression error keeps its own lines)
    super(formatIssues(issues, file, omitted));
  }
}

/** `source: path: message` per issue, one per line (an expression error keeps its own lines); `omitted` more only counted. */
export function formatIssues(issues: readonly Issue[], source?: string, omitted = 0): string {
  const prefix = source ? `${source}: ` : '';
  const lines = issues.slice(0, MAX_LISTED).map((i) => `${prefix}${dottedPath(i.path)}: ${i.message.replace(/\n$/, '')}`);
  const more = Math.max(0, issues.length - MAX_LISTED) + omitted;
  if (more > 0) lines.push(`${prefix}... and ${counted(more, 'more problem')}`);
  return lines.join('\n');
}

/**
 * The first issue as one error line (`path: message (and N more problems)`) naming `source`: for
 * files read at start-up (the API's state and credentials files), where one line is enough to act.
 */
export function firstIssueError(issues: readonly Issue[], omitted: number, source: string): ConfigItemError {
  const more = issues.length - 1 + omitted;
  const message = issues[0].message.replace(/\n[\s\S]*$/, '');
  return new ConfigItemError(dottedPath(issues[0].path), `${message}${more > 0 ? ` (and ${counted(more, 'more problem')})` : ''}`, source);
}

/** How a snapshot is checked. */
export interface SnapshotOptions {
  /** 'allow': a rule may use a list the snapshot does not define (lint warns about it instead) */
  unknownLists?: 'refuse' | 'allow';
  /** what is validated instead of the parsed document (lint: the document less what deploy-time checks report, deploy-checks.ts) */
  prepare?: (document: unknown) => unknown;
}

/**
 * Validates and normalises a parsed snapshot document; throws SnapshotError naming every problem
 * (`source` prefixes each line, e.g. the file name).
 */
export function validateSnapshot(value: unknown, source?: string, options: SnapshotOptions = {}): Snapshot {
  const document = options.prepare === undefined ? value : options.prepare(value);
  const { value: normalised, issues, omitted } = parseWithSchema(SNAPSHOT_SCHEMA, document, VOCABULARY);
  if (options.unknownLists !== 'allow') issues.push(...snapshotListIssues(normalised));
  if (issues.length > 0) throw new SnapshotError(issues, source, omitted);
  return normalised as Snapshot;
}
