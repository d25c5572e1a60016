// The flags that say where a command's configuration and data come from, shared by replay and
// match: a snapshot file or a running API, GeoIP/ASN databases, list feeds, data-center overrides.
import type { Command } from 'commander';
import { AtpConfigError } from '../atp/index.js';
import { CaptureError } from '../capture/reader.js';
import { loadSnapshotFile } from '../config/load.js';
import { exportSnapshot } from '../config/api-client.js';
import type { Snapshot } from '../config/snapshot.js';
import { FirewallConfigError } from '../firewall/firewall.js';
import type { PathOptions } from '../sim/build.js';
import { CliError } from './errors.js';

export interface ConfigFlags {
  config?: string;
  api?: string;
  account?: string;
  token?: string;
}

export interface DataFlags {
  geoip?: string;
  asn?: string;
  lists?: string;
  colo?: string;
  region?: string;
}

export function addConfigOptions(cmd: Command): void {
  cmd
    .option('-c, --config <snapshot.json>', 'configuration snapshot file (see `edgesim export`)')
    .option('--api <url>', 'read the configuration from a running API, e.g. http://127.0.0.1:8787/client/v4')
    .option('--account <id>', 'account id, with --api')
    .option('--token <token>', 'API token, with --api (default: $EDGESIM_API_TOKEN)');
}

export function addDataOptions(cmd: Command): void {
  cmd
    .option('--geoip <file>', 'MaxMind-format country database (default: the bundled geo-whois-asn-country)')
    .option('--asn <file>', 'MaxMind-format ASN database (for ip.src.asnum / ip.dst.asnum)')
    .option('--lists <dir>', 'managed-list feeds (<name>.txt, one address or CIDR a line) replacing the bundled samples')
    .option('--colo <name>', 'treat every packet as arriving at this data center')
    .option('--region <name>', 'treat every packet as arriving in this region');
}

export function dataOptions(flags: DataFlags): PathOptions {
  return { geoipPath: flags.geoip, asnPath: flags.asn, listsDir: flags.lists, colo: flags.colo, region: flags.region };
}

/** The snapshot named by --config or fetched from --api; an empty configuration when neither is given. */
export async function loadConfiguration(flags: ConfigFlags, required = true): Promise<Snapshot> {
  if (flags.config !== undefined && flags.api !== undefined) throw new CliError('give either --config or --api, not both', 2);
  if (flags.config !== undefined) return loadSnapshotFile(flags.config);
  if (flags.api !== undefined) {
    if (flags.account === undefined) throw new CliError('--api needs --account ID', 2);
    return exportSnapshot({ url: flags.api, account: flags.account, token: flags.token ?? process.env.EDGESIM_API_TOKEN });
  }
  if (required) throw new CliError('no configuration: give --config SNAPSHOT.json or --api URL --account ID', 2);
  return {};
}

/** Turns the errors of reading a capture or compiling a configuration into one-line CLI errors. */
export function asCliError(err: unknown, flags: ConfigFlags): unknown {
  if (err instanceof CaptureError) return new CliError(err.message);
  if (err instanceof FirewallConfigError || err instanceof AtpConfigError) return new CliError(`${flags.config ?? flags.api ?? 'configuration'}: ${err.message}`);
  return err;
}
