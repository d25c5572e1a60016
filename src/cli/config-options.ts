// The flags that say where a command's configuration and data come from, shared by replay and
// match: a snapshot file or a running API, GeoIP/ASN databases, list feeds, data-center overrides.
// (Only option definitions here: commands load their implementation, and its dependencies, when run.)
import type { Command } from 'commander';

export interface ConfigFlags {
  config?: string;
  api?: string;
  account?: string;
  token?: string;
  key?: string;
  email?: string;
}

export interface DataFlags {
  geoip?: string;
  asn?: string;
  lists?: string;
  colo?: string;
  region?: string;
  atpOptions?: string;
  bidirectional?: boolean;
}

export function addConfigOptions(cmd: Command): void {
  cmd
    .option('-c, --config <snapshot.json>', 'configuration snapshot file (see `edgesim export`)')
    .option('--api <url>', 'read the configuration from a running API, e.g. http://127.0.0.1:8787/client/v4')
    .option('--account <id>', 'account id, with --api')
    .option('--token <token>', 'API token, with --api (default: $EDGESIM_API_TOKEN)')
    .option('--key <key>', 'API key, with --api and --email')
    .option('--email <email>', 'the e-mail that goes with --key');
}

export function addDataOptions(cmd: Command): void {
  cmd
    .option('--geoip <file>', 'MaxMind-format country database (default: the bundled geo-whois-asn-country)')
    .option('--asn <file>', 'MaxMind-format ASN database (for ip.src.asnum / ip.dst.asnum)')
    .option('--lists <dir>', 'managed-list feeds (<name>.txt, one address or CIDR a line) replacing the bundled samples')
    .option('--colo <name>', 'treat every packet as arriving at this data center')
    .option('--region <name>', 'treat every packet as arriving in this region');
}

export function addAtpOptions(cmd: Command): void {
  cmd
    .option('--atp-options <file.json>', 'override parameters of the Advanced TCP Protection model (thresholds, windows, timeouts: see src/atp/README.md)')
    .option('--bidirectional', 'the capture holds both directions: track connections from the server side too');
}
