// Where the rules of a Terraform plan or state are written in the .tf files a reviewer opens: each
// ruleset's resource address (`module.fw["eu"].cloudflare_ruleset.mt`) to its resource block in
// the .tf files of its module's folder (the root module's folder: the JSON file's, or --tf-dir; a
// child module's: its call's local `source`, from the plan's `configuration` section or else the
// `module` block), and each of its rules to the item it comes from (align.ts), with the place of
// its `expression` attribute. What cannot be placed so (no .tf files, a module from a registry, a
// resource not found, .tf files that no longer match the JSON) is placed in the JSON file itself,
// at the rule's object, with a note saying why.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { jsonPathLocator, type RuleLocator, type SourceLocation } from '../location.js';
import { parseAddress } from './addresses.js';
import { alignRules } from './align.js';
import { firstSyntaxError, readHcl, type SourceRange } from './hcl-parser.js';
import { terraformFileContents, type RuleItem, type RulesetResource, type TerraformFileContents } from './ruleset-blocks.js';

/** The Terraform JSON whose rules are to be placed, and what its reader made of it. */
export interface TerraformJson {
  /** the JSON file as the user named it, and its text */
  file: string;
  text: string;
  /** what was read: a state's or a plan's planned values, or one side of a plan's changes */
  side: 'planned' | 'before' | 'after';
  /** each ruleset read, in order: its resource address and its rules' expressions as the JSON has them */
  rulesets: ReadonlyArray<{ address: string; expressions: ReadonlyArray<string | undefined> }>;
}

export interface TerraformSourcePlaces {
  locate: RuleLocator;
  /** why some rulesets are placed in the JSON file (each once) */
  notes: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const LOCAL_SOURCE = /^\.\.?[\\/]/;

/** One .tf file read: its rulesets and module calls. */
interface TfFile {
  file: string;
  contents: TerraformFileContents;
}

/** The JSON path of each resource's object in the document, for the side that was read. */
function jsonPaths(doc: unknown, side: TerraformJson['side']): Map<string, Array<string | number>> {
  const paths = new Map<string, Array<string | number>>();
  if (!isObject(doc)) return paths;
  if (side !== 'planned') {
    (Array.isArray(doc.resource_changes) ? doc.resource_changes : []).forEach((c, k) => {
      if (isObject(c) && typeof c.address === 'string' && !paths.has(c.address)) paths.set(c.address, ['resource_changes', k, 'change', side]);
    });
    return paths;
  }
  const walk = (module: unknown, at: Array<string | number>): void => {
    if (!isObject(module)) return;
    (Array.isArray(module.resources) ? module.resources : []).forEach((r, k) => {
      if (isObject(r) && typeof r.address === 'string' && !paths.has(r.address)) paths.set(r.address, [...at, 'resources', k, 'values']);
    });
    (Array.isArray(module.child_modules) ? module.child_modules : []).forEach((m, k) => walk(m, [...at, 'child_modules', k]));
  };
  const root = 'planned_values' in doc ? 'planned_values' : 'values';
  walk(isObject(doc[root]) ? doc[root].root_module : undefined, [root, 'root_module']);
  return paths;
}

/** A module call's `source` in the plan's configuration section (modules: the calls from the root). */
function configuredSource(doc: unknown, modules: readonly string[]): string | undefined {
  let module: unknown = isObject(doc) && isObject(doc.configuration) ? doc.configuration.root_module : undefined;
  let source: unknown;
  for (const name of modules) {
    const call = isObject(module) && isObject(module.module_calls) ? module.module_calls[name] : undefined;
    if (!isObject(call)) return undefined;
    source = call.source;
    module = call.module;
  }
  return typeof source === 'string' ? source : undefined;
}

const located = (file: string, range: SourceRange, address: string): SourceLocation => ({
  file,
  line: range.start.line,
  column: range.start.column,
  endLine: range.end.line,
  endColumn: range.end.column,
  address,
});

/** A ruleset found in a .tf file, and the item of each of its rules. */
interface Placed {
  file: string;
  resource: RulesetResource;
  items: RuleItem[];
}

/**
 * The places of the rulesets of `json` in the .tf files of `dir` (default: the JSON file's folder)
 * and of its local child modules; the JSON file's own lines for what cannot be placed there.
 */
export async function terraformSourceLocator(json: TerraformJson, dir = path.dirname(json.file)): Promise<TerraformSourcePlaces> {
  const doc: unknown = JSON.parse(json.text);
  const notes: string[] = [];
  const folders = new Map<string, Promise<TfFile[] | string>>();

  /** The .tf files of a folder, read once; a string says why there are none. */
  const filesOf = (folder: string): Promise<TfFile[] | string> => {
    let read = folders.get(folder);
    if (read === undefined) {
      read = readFolder(folder, notes);
      folders.set(folder, read);
    }
    return read;
  };

  /** The folder of a module (the calls from the root), or why it has none in this repository. */
  const folderOf = async (modules: readonly string[]): Promise<string | { reason: string }> => {
    let folder = dir;
    for (let k = 0; k < modules.length; k++) {
      const name = modules[k]!;
      let source = configuredSource(doc, modules.slice(0, k + 1));
      if (source === undefined) {
        const files = await filesOf(folder);
        if (typeof files === 'string') return { reason: files };
        source = files.flatMap((f) => f.contents.modules).find((m) => m.name === name)?.source;
      }
      if (source === undefined) return { reason: `the source of module.${modules.slice(0, k + 1).join('.module.')} is not in the plan's configuration nor in a module block of ${folder}` };
      if (!LOCAL_SOURCE.test(source)) return { reason: `module.${modules.slice(0, k + 1).join('.module.')} comes from ${JSON.stringify(source)}, not a folder of this repository` };
      folder = path.join(folder, source);
    }
    return folder;
  };

  const place = async ({ address, expressions }: TerraformJson['rulesets'][number]): Promise<Placed | string> => {
    const parsed = parseAddress(address);
    if (parsed === undefined) return 'its address is not one of a managed resource';
    const folder = await folderOf(parsed.modules);
    if (typeof folder !== 'string') return folder.reason;
    const files = await filesOf(folder);
    if (typeof files === 'string') return files;
    const found = files.flatMap((f) => f.contents.resources.filter((r) => r.type === parsed.type && r.name === parsed.name).map((resource) => ({ file: f.file, resource })))[0];
    if (found === undefined) return `no resource "${parsed.type}" "${parsed.name}" in the .tf files of ${folder}`;
    const assigned = alignRules(found.resource.rules, expressions);
    if (assigned === undefined) return `its rules in ${found.file} are not the ones the JSON has (were the .tf files changed after it was made?)`;
    const opaque = found.resource.rules.find((item, i) => item.kind === 'opaque' && assigned.includes(i));
    if (opaque !== undefined) notes.push(`${address}: its rules come from an expression edgesim does not evaluate (${found.file}:${opaque.range.start.line}); they are placed at that attribute`);
    return { file: found.file, resource: found.resource, items: assigned.map((i) => found.resource.rules[i]!) };
  };

  const placed: Array<Placed | undefined> = [];
  for (const ruleset of json.rulesets) {
    const result = await place(ruleset);
    if (typeof result === 'string') notes.push(`${ruleset.address}: placed in ${json.file}: ${result}`);
    placed.push(typeof result === 'string' ? undefined : result);
  }

  const paths = jsonPaths(doc, json.side);
  const inJson = jsonPathLocator(json.text, json.file, (i, j) => [...(paths.get(json.rulesets[i]?.address ?? '') ?? ['?']), ...(j === undefined ? [] : ['rules', j])]);
  const locate: RuleLocator = (i, j, part) => {
    const ruleset = json.rulesets[i];
    if (ruleset === undefined) return undefined;
    const address = j === undefined ? ruleset.address : `${ruleset.address} rules[${j}]`;
    const at = placed[i];
    const item = j === undefined ? undefined : at?.items[j];
    if (at !== undefined && j === undefined) return located(at.file, at.resource.range, address);
    if (at !== undefined && item !== undefined) return located(at.file, part === 'expression' && item.expression !== undefined ? item.expression.range : item.range, address);
    const fallback = inJson(i, j);
    return { ...(fallback ?? { file: json.file }), address };
  };
  return { locate, notes: [...new Set(notes)] };
}

/** The .tf files of a folder parsed, override files last; a string says why there are none. */
async function readFolder(folder: string, notes: string[]): Promise<TfFile[] | string> {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.tf'));
  } catch {
    return `cannot read the folder ${folder}`;
  }
  if (names.length === 0) return `no .tf files in ${folder === '.' ? 'the working folder' : folder} (give their folder with --tf-dir)`;
  const override = (n: string): boolean => n === 'override.tf' || n.endsWith('_override.tf');
  names.sort((a, b) => Number(override(a)) - Number(override(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const files: TfFile[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    } catch {
      notes.push(`${file}: cannot be read; rulesets written in it are placed in the JSON file`);
      continue;
    }
    const { contents, error } = await readHcl(text, (root) => ({ contents: terraformFileContents(root, text), error: firstSyntaxError(root) }));
    if (error !== undefined) notes.push(`${file}:${error.start.line}:${error.start.column}: not valid HCL there; a ruleset written after it may be placed in the JSON file`);
    files.push({ file, contents });
  }
  return files;
}
