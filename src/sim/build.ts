// Builds the compiled path for a configuration snapshot (compiled-path.ts): resolves lists, compiles
// the firewall and Advanced TCP Protection's configuration, and switches on only the enrichment the
// configuration reads.
import { AtpConfiguration, parseAtpOptions, type AtpOptionsInput } from '../atp/index.js';
import type { Snapshot } from '../config/snapshot.js';
import { vendorLimitWarnings } from '../config/vendor-limits.js';
import { createListRegistry } from '../data/lists.js';
import { enrichmentFor, LOOKUP_FIELDS, type LookupOptions } from '../fields/lookups.js';
import { Firewall } from '../firewall/firewall.js';
import { CompiledPath, type PathOptions } from './compiled-path.js';

export type { PathOptions, PathSetup } from './compiled-path.js';

/** Compiles the snapshot into a path; a bad item throws a ConfigItemError naming its path in the snapshot. */
export async function compilePath(snapshot: Snapshot, opts: PathOptions = {}): Promise<CompiledPath> {
  const warnings = vendorLimitWarnings(snapshot);
  const lists = createListRegistry({ dir: opts.listsDir, accountLists: snapshot.lists, onSample: opts.onSampleList });
  const resolve = (name: string) => lists.resolve(name);
  const firewall = Firewall.compile(snapshot.rulesets ?? [], { lists: resolve });
  const atp = atpConfiguration(snapshot, opts.atp);
  const enrichment = await enrichmentFor(firewall.fields, atp.readsIngress, opts, warnings);
  return new CompiledPath({ firewall, atp, lists: resolve, enrichment, warnings, setup: { snapshot, pathOptions: pathOptionsOf(opts) } });
}

/** Protection's configuration of a snapshot, with the model options; throws ConfigItemError naming a bad item. */
export function atpConfiguration(snapshot: Snapshot, options?: AtpOptionsInput): AtpConfiguration {
  return new AtpConfiguration(snapshot, parseAtpOptions(options));
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
export async function buildExpressionPath(expression: string, snapshot: Snapshot, opts: PathOptions = {}): Promise<CompiledPath> {
  return compilePath({ lists: snapshot.lists, rulesets: [{ name: 'match', phase: 'edge_transit', kind: 'root', rules: [{ expression, action: 'log' }] }] }, opts);
}

/** The path `edgesim inspect` runs: no rules and no protection, every looked-up field when `lookups` is on. */
export async function buildLookupPath(lookups: boolean, opts: PathOptions = {}): Promise<CompiledPath> {
  const warnings: string[] = [];
  // ASNs only with --asn: enrichmentFor leaves them out without a database
  const enrichment = lookups ? await enrichmentFor(LOOKUP_FIELDS, false, opts, warnings) : undefined;
  return new CompiledPath({ firewall: Firewall.compile([]), enrichment, warnings });
}
