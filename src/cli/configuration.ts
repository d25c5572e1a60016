// Where a command's configuration and data come from at run time: configuration files or a running API,
// and the data options of the packet path (lookups, ATP model options). Used by actions only. Each
// source is remembered so that an error in an item of it (a rule that does not compile, a bad ATP
// option) names the file it came from: see `attachSource` in errors.ts.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { STDIN_NAME } from '../capture/source.js';
import { STAGES, type AtpOptionsInput, type AtpStage } from '../atp/index.js';
import { readAtpOptionsFile } from '../atp/options-file.js';
import type { ApiTarget } from '../config/api-client.js';
import type { ConfigurationInput } from '../config/inputs/index.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import type { SnapshotOptions } from '../config/validate.js';
import { sampleListNote } from '../data/lists.js';
import { UsageError, UserError } from '../errors.js';
import type { PathOptions } from '../sim/build.js';
import type { ApiFlags, ConfigFlags, DataFlags } from './options.js';
import { warn } from './output.js';

export interface LoadedConfiguration {
  snapshot: Snapshot;
  /** the configuration files (or the API URL), to name in errors; undefined for the empty configuration */
  source: string | undefined;
  /** where each rule is written in the user's files */
  locate: RuleLocator;
  /** what reading the files found worth saying (said on standard error once a run; reports that stand alone, such as a pull-request comment, say it again) */
  notes?: readonly string[];
  /** the refs the readers made for rules without one (a write to an API leaves them out) */
  madeRefs?: ReadonlySet<string>;
}

/** How a command reads its configuration. */
export interface LoadOptions extends SnapshotOptions {
  /** no configuration at all is an error (else the empty configuration) */
  required?: boolean;
  /** the side of --plan's changes the command reads (default: after) */
  side?: 'before' | 'after';
  /** the command reports where rules are written: Terraform JSON's rules are placed in their .tf files (--tf-dir); 'quiet': without saying what could not be placed */
  places?: boolean | 'quiet';
}

const noted = new Set<string>();

/** Says `note` on standard error, once a run. */
function noteOnce(note: string): void {
  if (!noted.has(note)) warn(note);
  noted.add(note);
}

/** Says once a run that a rule reads a managed list from the bundled samples (pass to createListRegistry's onSample). */
export function sampleListSaid(name: string): void {
  noteOnce(sampleListNote(name));
}

/**
 * The configuration named by --config (one file or several, merged by resource) and --plan, or
 * fetched from --api; an empty configuration when none is given and none is required. Notes of
 * the readers are said on stderr, each once a run.
 */
export async function loadConfiguration(flags: ConfigFlags, options: LoadOptions = {}): Promise<LoadedConfiguration> {
  const files = flags.config ?? [];
  if (flags.api !== undefined && (files.length > 0 || flags.plan !== undefined)) throw new UsageError('give either --config or --api, not both');
  if (files.length > 0 || flags.plan !== undefined) {
    const { readConfiguration } = await import('../config/inputs/index.js');
    if (files.filter((f) => f === '-').length > 1) throw new UsageError('--config -: standard input can be read once');
    const stdin = files.includes('-') ? await (await import('./input.js')).readStdinText() : undefined;
    const inputs: ConfigurationInput[] = [
      ...(flags.plan === undefined ? [] : [{ file: flags.plan, plan: options.side ?? 'after' } as const]),
      ...files.map((file) => (file === '-' ? { file: STDIN_NAME, text: stdin } : { file })),
    ];
    if (flags.tfDir !== undefined && !isFolder(flags.tfDir)) throw new UsageError(`--tf-dir ${flags.tfDir}: no such folder (give the folder of the .tf files)`);
    const terraformSources = options.places === undefined || options.places === false ? undefined : { dir: flags.tfDir, quiet: options.places === 'quiet' };
    const read = await readConfiguration(inputs, { format: flags.configFormat, unknownLists: options.unknownLists, prepare: options.prepare, terraformSources, account: flags.account }).catch(async (err: unknown) => {
      for (const { file, text } of inputs) if (text === undefined && (await isCapture(file))) throw new UserError('a capture, not a configuration: did you swap the capture and --config?', { source: file });
      throw err;
    });
    for (const note of read.notes) noteOnce(note);
    return { snapshot: read.snapshot, source: inputs.map((i) => i.file).join(', '), locate: read.locate, notes: read.notes, madeRefs: read.madeRefs };
  }
  if (flags.api !== undefined) {
    if (flags.account === undefined) throw new UsageError('--api needs --account ID');
    const { exportSnapshot } = await import('../config/api-client.js');
    return { snapshot: await exportSnapshot(apiTarget({ ...flags, api: flags.api, account: flags.account })), source: flags.api, locate: NOWHERE };
  }
  if (options.required ?? true) throw new UsageError('no configuration: give --config FILE (a snapshot, Terraform JSON, a vendor API response or octorules YAML) or --api URL --account ID');
  return { snapshot: {}, source: undefined, locate: NOWHERE };
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `file` starts as a capture does (pcap, pcapng, gzip): given to --config by mistake. */
export async function isCapture(file: string): Promise<boolean> {
  const [{ isPcapMagic }, { SHB }] = await Promise.all([import('../capture/pcap.js'), import('../capture/pcapng.js')]);
  const head = Buffer.alloc(4);
  try {
    const fd = openSync(file, 'r');
    try {
      if (readSync(fd, head, 0, 4, 0) < 4) return false;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  const view = new DataView(head.buffer, head.byteOffset, 4);
  return isPcapMagic(view) || view.getUint32(0, true) === SHB || (head[0] === 0x1f && head[1] === 0x8b);
}

/** The target the flags name; $EDGESIM_API_TOKEN stands in for a missing --token. */
export function apiTarget(flags: ApiFlags): ApiTarget {
  if ((flags.key === undefined) !== (flags.email === undefined)) throw new UsageError('--key and --email go together');
  if (!/^https?:\/\/[^/]/.test(flags.api)) throw new UsageError(`--api: ${JSON.stringify(flags.api)} is not an http(s) URL`);
  const token = flags.token ?? (flags.key === undefined ? process.env.EDGESIM_API_TOKEN : undefined);
  return { url: flags.api, account: flags.account, token: token || undefined, key: flags.key, email: flags.email };
}

/**
 * The packet path's data options; ATP options from --atp-options are read and checked here, naming
 * that file on error; --baseline-pps and --bidirectional override the file.
 */
export function dataOptions(flags: DataFlags): PathOptions {
  return { geoipPath: flags.geoip, asnPath: flags.asn, listsDir: flags.lists, colo: flags.colo, region: flags.region, atp: atpOptions(flags), onSampleList: sampleListSaid };
}

function atpOptions(flags: DataFlags): AtpOptionsInput | undefined {
  let options = flags.atpOptions === undefined ? undefined : readAtpOptionsFile(flags.atpOptions);
  if (flags.baselinePps !== undefined) {
    for (const [stage, pps] of baselines(flags.baselinePps)) options = { ...options, [stage]: { ...options?.[stage], baselinePps: pps } };
  }
  if (flags.bidirectional) options = { ...options, bidirectional: true };
  return options;
}

/** --baseline-pps: PPS for both components, or COMPONENT=PPS pairs separated by commas. */
function baselines(text: string): Array<[AtpStage, number]> {
  const rate = (value: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`--baseline-pps: ${JSON.stringify(value)} is not a rate (packets per second, a number from 0)`);
    return Number(value);
  };
  const items = text.split(',').map((item) => item.trim());
  if (items.length === 1 && !items[0]!.includes('=')) return STAGES.map((stage) => [stage, rate(items[0]!)]);
  const given = new Map<AtpStage, number>();
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new UsageError(`--baseline-pps: expected COMPONENT=PPS, got ${JSON.stringify(item)} (or one PPS for both components)`);
    const stage = item.slice(0, eq).trim() as AtpStage;
    if (!STAGES.includes(stage)) throw new UsageError(`--baseline-pps: unknown component ${JSON.stringify(stage)} (expected ${STAGES.join(' or ')})`);
    if (given.has(stage)) throw new UsageError(`--baseline-pps: ${stage} is given twice`);
    given.set(stage, rate(item.slice(eq + 1).trim()));
  }
  return [...given];
}
