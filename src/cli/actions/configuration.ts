// Where a command's configuration and data come from at run time: a snapshot file or a running
// API, and the data options for the packet path; plus the one mapping of load/compile errors to
// one-line CLI errors.
import { readFileSync } from 'node:fs';
import { parseAtpOptions, type AtpOptions, type AtpOptionsInput } from '../../atp/index.js';
import { CaptureError } from '../../capture/reader.js';
import { exportSnapshot } from '../../config/api-client.js';
import { loadSnapshotFile } from '../../config/load.js';
import type { Snapshot } from '../../config/snapshot.js';
import { FirewallConfigError } from '../../firewall/firewall.js';
import type { PathOptions } from '../../sim/build.js';
import type { ConfigFlags, DataFlags } from '../config-options.js';
import { attachSource, ConfigItemError } from '../../errors.js';
import { CliError } from '../errors.js';
import { apiTarget } from '../commands/export.js';

export function dataOptions(flags: DataFlags): PathOptions {
  return { geoipPath: flags.geoip, asnPath: flags.asn, listsDir: flags.lists, colo: flags.colo, region: flags.region, atp: atpOptions(flags) };
}

function atpOptions(flags: DataFlags): AtpOptions | undefined {
  let options: AtpOptionsInput | undefined;
  if (flags.atpOptions !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.atpOptions, 'utf8');
    } catch (err) {
      throw new CliError(`${flags.atpOptions}: cannot read the ATP options: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      options = JSON.parse(text) as AtpOptionsInput;
    } catch (err) {
      throw new CliError(`${flags.atpOptions}: not valid JSON: ${(err as Error).message}`);
    }
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new CliError(`${flags.atpOptions}: expected a JSON object of ATP options`);
  }
  if (flags.bidirectional) options = { ...options, bidirectional: true };
  if (options === undefined) return undefined;
  try {
    return parseAtpOptions(options);
  } catch (err) {
    throw attachSource(err, flags.atpOptions ?? '--bidirectional');
  }
}

/** The snapshot named by --config or fetched from --api; an empty configuration when neither is given. */
export async function loadConfiguration(flags: ConfigFlags, required = true): Promise<Snapshot> {
  if (flags.config !== undefined && flags.api !== undefined) throw new CliError('give either --config or --api, not both', 2);
  if (flags.config !== undefined) return loadSnapshotFile(flags.config);
  if (flags.api !== undefined) {
    if (flags.account === undefined) throw new CliError('--api needs --account ID', 2);
    return exportSnapshot(apiTarget({ ...flags, api: flags.api, account: flags.account }));
  }
  if (required) throw new CliError('no configuration: give --config SNAPSHOT.json or --api URL --account ID', 2);
  return {};
}

/** Prints file-level warnings (of the capture when `source` is given) to stderr. */
export function printWarnings(source: string | undefined, warnings: readonly string[]): void {
  for (const w of warnings) process.stderr.write(`edgesim: warning: ${source === undefined ? '' : `${source}: `}${w}\n`);
}

/** Turns the errors of reading a capture or compiling a configuration into one-line CLI errors. */
export function asCliError(err: unknown, flags: ConfigFlags): unknown {
  if (err instanceof CaptureError) return new CliError(err.message);
  if (err instanceof FirewallConfigError) return new CliError(`${flags.config ?? flags.api ?? 'configuration'}: ${err.message}`);
  if (err instanceof ConfigItemError) return new CliError((attachSource(err, flags.config ?? flags.api ?? 'configuration') as ConfigItemError).line());
  return err;
}
