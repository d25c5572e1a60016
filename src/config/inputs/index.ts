// Reading a configuration where it already is: edgesim's snapshot JSON, Terraform's JSON output
// (state or plan), the vendor API's JSON, or an octorules YAML file, detected by content unless a
// format is named; several files merged by resource. Every format is read into the snapshot's
// shape and checked by the one validation (validateSnapshot); an error line names the file and the
// place as that file spells it (a JSON path, a YAML key, a Terraform address and rule).
import { readFile } from 'node:fs/promises';
import { InputError, UserError } from '../../errors.js';
import type { RuleLocator } from '../location.js';
import { snapshotListIssues } from '../checks.js';
import type { JsonPath } from '../schema.js';
import type { Snapshot } from '../snapshot.js';
import { SnapshotError, validateSnapshot, type SnapshotOptions } from '../validate.js';
import { detectFormat } from './detect.js';
import { isObject, type ConfigFormat, type ConfigurationDocument, type PlanSide } from './document.js';
import { mergeParts, type ConfigurationPart } from './merge.js';

export { CONFIG_FORMATS, type ConfigFormat } from './document.js';
export { detectFormat } from './detect.js';

export type Reader = (text: string, file: string, side: PlanSide, options: { account?: string }) => ConfigurationDocument;

/** Each format's reader, loaded when a file is in that format (the YAML parser is not small). */
const READERS: Readonly<Record<ConfigFormat, () => Promise<Reader>>> = {
  snapshot: async () => (await import('./snapshot-file.js')).readSnapshotDocument,
  terraform: async () => (await import('./terraform.js')).readTerraformDocument,
  vendor: async () => (await import('./vendor.js')).readVendorDocument,
  octorules: async () => (await import('./octorules.js')).readOctorulesDocument,
};

/** The reader of a format (the language server reads an editor's text with it, as --config reads a file). */
export function readerFor(format: ConfigFormat): Promise<Reader> {
  return READERS[format]();
}

/** A configuration file; `plan` reads one side of a Terraform plan's changes (diff --plan, lint --plan). */
export interface ConfigurationInput {
  /** the file, or the name of where `text` came from */
  file: string;
  plan?: 'before' | 'after';
  /** the configuration's text when it is not read from `file` (standard input) */
  text?: string;
}

export interface ReadOptions extends SnapshotOptions {
  /** the format of every file, instead of detecting it */
  format?: ConfigFormat;
  /**
   * Place Terraform JSON's rules in their .tf files (for reports that point at rules), found in
   * `dir` or else beside the JSON file; without this, its rules are named by resource address only.
   */
  terraformSources?: { dir?: string; /** keep the notes of what could not be placed to itself (a suite's places matter only if a case fails) */ quiet?: boolean };
  /** the account to read from a file that holds several (Terraform state with for_each over accounts) */
  account?: string;
}

/** A checked configuration read from files. */
export interface ConfigurationFiles {
  snapshot: Snapshot;
  /** where each rule is written in the user's file */
  locate: RuleLocator;
  /** what is worth saying that is not an error, each once */
  notes: string[];
  /** the refs the readers made for rules without one (withoutMadeRefs leaves them out of a write) */
  madeRefs: ReadonlySet<string>;
}

/** The snapshot with the refs a reader made taken out of its rules: what is written to an API is what the user wrote. */
export function withoutMadeRefs(snapshot: Snapshot, made: ReadonlySet<string>): Snapshot {
  if (made.size === 0 || snapshot.rulesets === undefined) return snapshot;
  const rulesets = snapshot.rulesets.map((rs) => ({ ...rs, rules: rs.rules?.map(({ ref, ...rule }) => (ref !== undefined && made.has(ref) ? rule : { ref, ...rule })) }));
  return { ...snapshot, rulesets };
}

/**
 * A configuration file's bytes as text: UTF-8, or one line saying to save it as UTF-8 when it is
 * UTF-16 (what Windows PowerShell 5.1's `terraform show -json > plan.json` writes).
 */
function decodedText(bytes: Buffer, file: string): string {
  const bom16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  // without a byte-order mark, ASCII text in UTF-16 has a zero byte beside each of its first characters
  const zeros = bytes.length >= 4 && (bytes[1] === 0 && bytes[3] === 0 ? bytes[0] !== 0 : bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0);
  if (bom16 || zeros) {
    throw new UserError('the file is UTF-16 (as Windows PowerShell 5.1 writes `>`): save it as UTF-8, e.g. terraform show -json plan.out | Out-File -Encoding utf8 plan.json', { source: file });
  }
  return bytes.toString('utf8');
}

/** A SnapshotError whose paths are spelled as the user's file spells them. */
function inFileTerms(err: unknown, origin: (path: JsonPath) => JsonPath, file: string | undefined): unknown {
  return err instanceof SnapshotError ? new SnapshotError(err.issues.map((i) => ({ ...i, path: origin(i.path) })), file, err.omitted) : err;
}

async function readPart(input: ConfigurationInput, options: ReadOptions): Promise<ConfigurationPart & { read: ConfigurationDocument; format: ConfigFormat }> {
  let text: string;
  try {
    text = input.text ?? decodedText(await readFile(input.file), input.file);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new InputError(input.file, err, 'cannot read the configuration');
  }
  text = text.replace(/^\uFEFF/, '');
  const format = input.plan !== undefined ? 'terraform' : (options.format ?? (await detectFormat(text)));
  const read = (await READERS[format]())(text, input.file, input.plan ?? 'planned', { account: options.account });
  if (format === 'terraform' && options.terraformSources !== undefined && (input.text === undefined || options.terraformSources.dir !== undefined)) {
    await placeInTerraformSources(read, { file: input.file, text, side: input.plan ?? 'planned' }, options.terraformSources);
  }
  try {
    return { file: input.file, snapshot: validateSnapshot(read.document, input.file, options), locate: read.locate, read, format };
  } catch (err) {
    throw inFileTerms(err, read.origin, input.file);
  }
}

/**
 * A configuration given as a parsed object in `format` (a snapshot, Terraform JSON, a vendor API
 * response, an octorules account: detectValueFormat), named `name` in errors.
 */
export async function readConfigurationValue(value: object, format: ConfigFormat, name: string): Promise<ConfigurationFiles> {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new InputError(name, err, 'cannot read the configuration');
  }
  return readConfiguration([{ file: name, text }], { format });
}

/** Replaces the locator of Terraform JSON by one that points at its .tf files (terraform-source/), adding its notes. */
async function placeInTerraformSources(read: ConfigurationDocument, json: { file: string; text: string; side: PlanSide }, sources: NonNullable<ReadOptions['terraformSources']>): Promise<void> {
  const { terraformSourceLocator } = await import('../terraform-source/index.js');
  const rulesets = (isObject(read.document) && Array.isArray(read.document.rulesets) ? read.document.rulesets : []).map((ruleset: unknown, i: number) => ({
    address: read.locate(i)?.address ?? '',
    expressions: (isObject(ruleset) && Array.isArray(ruleset.rules) ? ruleset.rules : []).map((rule: unknown) => (isObject(rule) && typeof rule.expression === 'string' ? rule.expression : undefined)),
  }));
  let places;
  try {
    places = await terraformSourceLocator({ ...json, rulesets }, sources.dir);
  } catch (err) {
    // the HCL parser could not start (a damaged installation): the rules keep their addresses
    if (sources.quiet !== true) read.notes.push(`the .tf files could not be read (${(err as Error).message}); rules are named by their Terraform addresses`);
    return;
  }
  read.locate = places.locate;
  if (sources.quiet !== true) read.notes.push(...places.notes);
}

/** Reads, converts, validates and merges configuration files; throws a UserError naming the file and the place. */
export async function readConfiguration(inputs: readonly ConfigurationInput[], options: ReadOptions = {}): Promise<ConfigurationFiles> {
  const several = inputs.length > 1;
  const parts = [];
  for (const input of inputs) parts.push(await readPart(input, several ? { ...options, unknownLists: 'allow' } : options));
  const { snapshot, locate, rulesetsFile } = mergeParts(parts);
  const terraform = parts.some((p) => p.format === 'terraform');
  if (options.terraformSources?.dir !== undefined && !terraform) parts[0]?.read.notes.push('--tf-dir: no configuration file is Terraform JSON, so no .tf file was read');
  if (several && options.unknownLists !== 'allow') {
    const issues = snapshotListIssues(snapshot);
    const origin = parts.find((p) => p.file === rulesetsFile)?.read.origin ?? ((path: JsonPath) => path);
    if (issues.length > 0) throw inFileTerms(new SnapshotError(issues), origin, rulesetsFile);
  }
  return { snapshot, locate, notes: [...new Set(parts.flatMap((p) => p.read.notes))], madeRefs: new Set(parts.flatMap((p) => p.read.madeRefs ?? [])) };
}
