// Builds the packet path for a configuration snapshot: resolves lists, compiles the firewall and
// Advanced TCP Protection, and switches on only the enrichment the configuration reads.
import { AdvancedTcpProtection, type AtpOptionsInput } from '../atp/index.js';
import type { Snapshot } from '../config/snapshot.js';
import { vendorLimitWarnings } from '../config/vendor-limits.js';
import { createListRegistry } from '../data/lists.js';
import { enrichmentFor, LOOKUP_FIELDS, type LookupOptions } from '../fields/lookups.js';
import type { Enrichment } from '../data/enrichment.js';
import { Firewall } from '../firewall/firewall.js';
import type { IpSet } from '../net/ip-set.js';
import { PacketPath } from './packet-path.js';

export interface PathOptions extends LookupOptions {
  /** a folder of managed-list feeds replacing the bundled samples */
  listsDir?: string;
  atp?: AtpOptionsInput;
  /** hears each managed list a rule reads from the bundled samples (the CLI says so once a run) */
  onSampleList?: (name: string) => void;
}

/** What a path is built from: another thread builds the same path from it (sim/jobs/). */
export interface PathSetup {
  snapshot: Snapshot;
  pathOptions: PathOptions;
}

export interface BuiltPath {
  path: PacketPath;
  firewall: Firewall;
  atp: AdvancedTcpProtection;
  /** resolves the `$name` lists the rules use */
  lists: (name: string) => IpSet | undefined;
  /** the lookups the path makes (undefined when the configuration reads no looked-up field) */
  enrichment: Enrichment | undefined;
  /** things the user should know before reading the results */
  warnings: string[];
  /** what the path was built from; null when it cannot be rebuilt from a snapshot (inspect's) */
  setup: PathSetup | null;
}

/** Compiles the snapshot into a packet path; a bad item throws a ConfigItemError naming its path in the snapshot. */
export async function buildPacketPath(snapshot: Snapshot, opts: PathOptions = {}): Promise<BuiltPath & { setup: PathSetup }> {
  const warnings = vendorLimitWarnings(snapshot);
  const lists = createListRegistry({ dir: opts.listsDir, accountLists: snapshot.lists, onSample: opts.onSampleList });
  const resolve = (name: string) => lists.resolve(name);
  const firewall = Firewall.compile(snapshot.rulesets ?? [], { lists: resolve });
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot, opts.atp);
  const enrichment = await enrichmentFor(firewall.fields, atp.readsIngress, opts, warnings);
  return { path: new PacketPath({ enrichment, atp, firewall }), firewall, atp, lists: resolve, enrichment, warnings, setup: { snapshot, pathOptions: pathOptionsOf(opts) } };
}

/**
 * The same compiled configuration (firewall, lists, lookups) with fresh run state: new protection
 * state (no connections, no rates) and a new path over it. What a library simulator's replay and
 * reset() start from, without compiling anything again.
 */
export function withFreshState(built: BuiltPath & { setup: PathSetup }): BuiltPath {
  const atp = built.atp.withFreshState();
  return { ...built, atp, path: new PacketPath({ enrichment: built.enrichment, atp, firewall: built.firewall }) };
}

/**
 * The path options alone, out of an object that may hold others (replayFile's): what another thread is
 * given to build the same path (it is copied there, and a function cannot be). Every option is named
 * (the type says so), so an option added to PathOptions cannot be left out.
 */
function pathOptionsOf(opts: PathOptions): PathOptions {
  const picked: { [K in keyof Required<PathOptions>]: PathOptions[K] } = {
    listsDir: opts.listsDir,
    geoipPath: opts.geoipPath,
    asnPath: opts.asnPath,
    colo: opts.colo,
    region: opts.region,
    atp: opts.atp,
    // the thread that built the path first has said it
    onSampleList: undefined,
  };
  return picked;
}

/**
 * The path `edgesim match` runs: one `log` rule holding `expression` over the snapshot's lists, so a
 * packet matched when the firewall's result lists a match. Lookups as a replay would do them.
 */
export async function buildExpressionPath(expression: string, snapshot: Snapshot, opts: PathOptions = {}): Promise<BuiltPath> {
  return buildPacketPath({ lists: snapshot.lists, rulesets: [{ name: 'match', phase: 'edge_transit', kind: 'root', rules: [{ expression, action: 'log' }] }] }, opts);
}

/** The path `edgesim inspect` runs: no rules and no protection, every looked-up field when `lookups` is on. */
export async function buildLookupPath(lookups: boolean, opts: PathOptions = {}): Promise<BuiltPath> {
  const warnings: string[] = [];
  const firewall = Firewall.compile([]);
  const atp = AdvancedTcpProtection.fromSnapshot({});
  // ASNs only with --asn: enrichmentFor leaves them out without a database
  const enrichment = lookups ? await enrichmentFor(LOOKUP_FIELDS, false, opts, warnings) : undefined;
  return { path: new PacketPath({ enrichment, atp, firewall }), firewall, atp, lists: () => undefined, enrichment, warnings, setup: null };
}
