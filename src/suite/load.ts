// Loading a suite: the whole file is checked — configuration, every case, every expectation, every
// file it names — before any case runs, and the first problem is one SuiteError line naming the
// file, the line and the key (exit 2).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readConfiguration } from '../config/inputs/index.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { formatIssues, SnapshotError, validateSnapshot } from '../config/validate.js';
import { attachSource, systemErrorText, UserError } from '../errors.js';
import { counted } from '../numbers.js';
import type { PathOptions } from '../sim/build.js';
import { SuitePaths } from './case-path.js';
import { CASE_KINDS } from './kinds/index.js';
import { existingFile, readSuiteText, SuiteError, type Located } from './source.js';
import type { LoadContext, Suite, SuiteCase, SuiteFiles } from './suite.js';

const KIND_KEYS = CASE_KINDS.map((k) => k.key);
const CASE_KEYS = ['name', 'expect', ...KIND_KEYS, ...new Set(CASE_KINDS.flatMap((k) => k.keys))];

/** A filter error's first line and its reason (the caret line's words); other text as it is. */
function oneLine(text: string): string {
  const lines = text.split('\n');
  return lines.length === 1 ? text : `${lines[0]!} ${lines[lines.length - 1]!.replace(/^[\s^]+/, '')}`;
}

/**
 * A problem of the configuration the suite names, as one suite error at the `config` key: the file
 * as the suite names it (an inline configuration is the suite itself, already named), then its
 * first problem and how many more there are.
 */
function configProblem(at: Located, err: unknown): never {
  if (!(err instanceof UserError) || err instanceof SuiteError) throw err;
  let detail = err.detail;
  if (err instanceof SnapshotError) {
    const more = err.issues.length - 1;
    detail = `${oneLine(formatIssues(err.issues.slice(0, 1)))}${more > 0 ? ` (and ${counted(more, 'more problem')})` : ''}`;
  }
  const file = err instanceof SnapshotError ? err.file : err.source;
  if (at.type === 'list') return at.fail(`${file === undefined ? '' : `${path.relative(path.dirname(at.file), file)}: `}${oneLine(detail)}`);
  return at.fail(at.type === 'map' ? oneLine(detail) : `${at.value as string}: ${oneLine(detail)}`);
}

async function loadConfig(root: Map<string, Located>, top: Located, dir: string, options: PathOptions, files: SuiteFiles): Promise<{ paths: SuitePaths; notes: string[] }> {
  const at = root.get('config');
  if (at === undefined) return top.fail('config: missing: name the configuration (a file or a list of files, relative to the suite) or write it inline');
  let snapshot: Snapshot;
  let notes: string[] = [];
  let locate: RuleLocator = NOWHERE;
  const named = at.type === 'list' ? at.items('a list of configuration files') : [at];
  try {
    if (at.type === 'map') snapshot = validateSnapshot(at.value);
    else {
      const inputs = named.map((item) => ({ file: existingFile(item, dir, 'a configuration file') }));
      for (const [i, { file }] of inputs.entries()) files.reads.push({ what: `the configuration of ${top.file}`, path: file, at: named[i]! });
      // a failing case's report says where its deciding rule is written (a Terraform rule: in its .tf file)
      ({ snapshot, notes, locate } = await readConfiguration(inputs, { terraformSources: { quiet: true } }));
    }
  } catch (err) {
    return configProblem(at, err);
  }
  try {
    return { paths: await SuitePaths.open(snapshot, options, locate), notes };
  } catch (err) {
    return configProblem(at, err);
  }
}

function parseCase(node: Located, ctx: LoadContext, names: Map<string, number>): SuiteCase {
  const keys = node.checkKeys(CASE_KEYS);
  const kinds = CASE_KINDS.filter((k) => keys.has(k.key));
  if (kinds.length === 0) node.fail(`a case needs one of ${KIND_KEYS.join(', ')}`);
  if (kinds.length > 1) keys.get(kinds[1]!.key)!.failKey(`a case is one kind: ${kinds[0]!.key} or ${kinds[1]!.key}, not both`);
  const kind = kinds[0]!;
  for (const [k, at] of keys) if (!['name', 'expect', kind.key, ...kind.keys].includes(k)) at.failKey(`does not apply to a ${kind.key} case`);

  const nameAt = keys.get('name');
  if (nameAt === undefined) return node.fail('name: missing: every case needs a name (unique in the suite)');
  if (nameAt.type !== 'string' || (nameAt.value as string).trim() === '') nameAt.fail('expected a case name (a string)');
  const name = nameAt.value as string;
  const first = names.get(name);
  if (first !== undefined) nameAt.fail(`duplicate case name ${JSON.stringify(name)} (first at line ${first})`);
  names.set(name, nameAt.line);

  const expectAt = keys.get('expect');
  if (expectAt === undefined) return node.fail(`expect: missing: say what the case expects (${kind.expectKeys.join(', ')})`);
  if (expectAt.type !== 'map') {
    const verdict = typeof expectAt.value === 'string' && kind.expectKeys.includes('verdict') ? `, e.g. expect: { verdict: ${expectAt.value} }` : '';
    expectAt.fail(`expected a map of what to check (${kind.expectKeys.join(', ')})${verdict}`);
  }
  const expect = expectAt.checkKeys(kind.expectKeys, 'expect key');
  if (expect.size === 0) expectAt.fail(`nothing to check: give one of ${kind.expectKeys.join(', ')}`);
  const data = kind.parse(keys.get(kind.key)!, expect, keys, { ...ctx, caseName: name });
  return { name, line: node.line, kind, data };
}

/**
 * Reads and checks a suite file (YAML or JSON), or its `text` already read (from standard input:
 * then `file` names it and paths in it are relative to the working folder); throws SuiteError
 * (exit 2) on the first problem.
 */
/**
 * The path of a configuration given on the command line (--config, --api), opened once for every
 * suite of the run, which runs against it instead of the configuration it names.
 */
export async function openGivenConfiguration(snapshot: Snapshot, source: string | undefined, options: PathOptions, locate?: RuleLocator): Promise<SuitePaths> {
  try {
    return await SuitePaths.open(snapshot, options, locate);
  } catch (err) {
    throw attachSource(err, source);
  }
}

/** `given`: the path of a --config configuration (openGivenConfiguration), used instead of the suite's `config:`. */
export async function loadSuite(file: string, options: PathOptions = {}, text?: string, given?: SuitePaths): Promise<Suite> {
  const read = text === undefined;
  try {
    text ??= await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the suite: ${systemErrorText(err)}`, { source: file, exitCode: 2 });
  }
  const { top, cases } = readSuiteText(file, text.replace(/^\uFEFF/, ''));
  if (top.type !== 'map') top.fail('a suite is a map with `config` and `cases`');
  const root = top.checkKeys(['config', 'cases', 'description']);
  const dir = read ? path.dirname(path.resolve(file)) : process.cwd();
  const files: SuiteFiles = { reads: read ? [{ what: `the suite ${file}`, path: file, at: top }] : [], goldens: [] };
  const { paths, notes } = given === undefined ? await loadConfig(root, top, dir, options, files) : { paths: given, notes: [] };
  const casesAt = root.get('cases');
  if (casesAt === undefined) return top.fail('cases: missing: a suite needs a list of cases');
  const items = cases === null ? casesAt.items('a list of cases') : null;
  if ((cases?.count ?? items!.length) === 0) casesAt.fail('expected at least one case');
  const ctx: LoadContext = { file, dir, paths, caseName: '', files };
  const names = new Map<string, number>();
  const parsed: SuiteCase[] = [];
  for (const node of cases?.each() ?? items!) parsed.push(parseCase(node, ctx, names));
  return { file, paths, cases: parsed, files, notes };
}
