// Reading a configuration where it already is: edgesim's snapshot JSON, Terraform's JSON output
// (state or plan), the vendor API's JSON, or an octorules YAML file, detected by content unless a
// format is named; several files merged by resource. Every format is read into the snapshot's
// shape and checked by the one validation (validateSnapshot); an error line names the file and the
// place as that file spells it (a JSON path, a YAML key, a Terraform address and rule).
import { readFile } from 'node:fs/promises';
import { InputError } from '../../errors.js';
import type { RuleLocator } from '../location.js';
import { snapshotListIssues } from '../checks.js';
import type { JsonPath } from '../schema.js';
import type { Snapshot } from '../snapshot.js';
import { SnapshotError, validateSnapshot, type SnapshotOptions } from '../validate.js';
import { detectFormat } from './detect.js';
import type { ConfigFormat, ConfigurationDocument, PlanSide } from './document.js';
import { mergeParts, type ConfigurationPart } from './merge.js';

export { CONFIG_FORMATS, type ConfigFormat } from './document.js';
export { detectFormat } from './detect.js';

export type Reader = (text: string, file: string, side: PlanSide) => ConfigurationDocument;

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
}

/** A checked configuration read from files. */
export interface ConfigurationFiles {
  snapshot: Snapshot;
  /** where each rule is written in the user's file */
  locate: RuleLocator;
  /** what is worth saying that is not an error, each once */
  notes: string[];
}

/** A SnapshotError whose paths are spelled as the user's file spells them. */
function inFileTerms(err: unknown, origin: (path: JsonPath) => JsonPath, file: string | undefined): unknown {
  return err instanceof SnapshotError ? new SnapshotError(err.issues.map((i) => ({ ...i, path: origin(i.path) })), file, err.omitted) : err;
}

async function readPart(input: ConfigurationInput, options: ReadOptions): Promise<ConfigurationPart & { read: ConfigurationDocument }> {
  let text: string;
  try {
    text = (input.text ?? (await readFile(input.file, 'utf8'))).replace(/^\uFEFF/, '');
  } catch (err) {
    throw new InputError(input.file, err, 'cannot read the configuration');
  }
  const format = input.plan !== undefined ? 'terraform' : (options.format ?? (await detectFormat(text)));
  const read = (await READERS[format]())(text, input.file, input.plan ?? 'planned');
  try {
    return { file: input.file, snapshot: validateSnapshot(read.document, input.file, options), locate: read.locate, read };
  } catch (err) {
    throw inFileTerms(err, read.origin, input.file);
  }
}

/** Reads, converts, validates and merges configuration files; throws a UserError naming the file and the place. */
export async function readConfiguration(inputs: readonly ConfigurationInput[], options: ReadOptions = {}): Promise<ConfigurationFiles> {
  const several = inputs.length > 1;
  const parts = [];
  for (const input of inputs) parts.push(await readPart(input, several ? { ...options, unknownLists: 'allow' } : options));
  const { snapshot, locate, rulesetsFile } = mergeParts(parts);
  if (several && options.unknownLists !== 'allow') {
    const issues = snapshotListIssues(snapshot);
    const origin = parts.find((p) => p.file === rulesetsFile)?.read.origin ?? ((path: JsonPath) => path);
    if (issues.length > 0) throw inFileTerms(new SnapshotError(issues), origin, rulesetsFile);
  }
  return { snapshot, locate, notes: [...new Set(parts.flatMap((p) => p.read.notes))] };
}
