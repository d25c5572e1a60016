// Traffic in the editor: a capture replayed through the configuration as the document holds it, each
// firewall rule's evaluations, hits (matches), the packets it decided and dropped, and its cost per
// evaluation timed alone, as `edgesim bench` measures them (the same profiling evaluator over the
// packets that reach the firewall; one short round, since it runs on every save). Runs in the query
// worker.
import type { JsonPath } from '../../config/schema.js';
import { UserError } from '../../errors.js';
import { ruleCosts } from '../../profile/benchmark.js';
import { loadCapture } from '../../profile/frames.js';
import { readText, rulePaths, type ConfigurationText, type LintSettings } from './configuration.js';

/** The most packets of a capture an editor replays (a capture's first ones). */
export const TRAFFIC_PACKETS = 200_000;

export interface RuleTraffic {
  path: JsonPath;
  ref: string;
  evaluations: number;
  hits: number;
  decided: number;
  drops: number;
  ns_per_evaluation: number;
}

export interface TrafficOutcome {
  /** the captures, merged by time when several */
  captures: string[];
  packets: number;
  rules: RuleTraffic[];
  /** why there is no figure (the capture cannot be read, the configuration is invalid) */
  failure: string | null;
  warnings: string[];
}

/** Each rule's traffic on a capture, or on several merged by time (the first TRAFFIC_PACKETS packets). */
export async function trafficOf(input: ConfigurationText, settings: LintSettings, captures: string[]): Promise<TrafficOutcome> {
  const none = (failure: string): TrafficOutcome => ({ captures, packets: 0, rules: [], failure, warnings: [] });
  const r = await readText(input, settings);
  if ('outcome' in r) return none(r.outcome.failure ?? 'the configuration has problems: fix them to see its traffic');
  try {
    const store = await loadCapture(captures.length === 1 ? captures[0]! : captures, TRAFFIC_PACKETS);
    if (store.count === 0) return none(`${captures.join(', ')}: no packets`);
    const { costs, actions, packets, warnings } = await ruleCosts(store, r.snapshot, { listsDir: settings.lists, minTimeMs: 1 });
    const paths = rulePaths(r.snapshot, r.read, r.deploy);
    return {
      captures,
      packets,
      rules: costs.flatMap((c) => {
        const at = paths[c.position];
        if (at === undefined) return [];
        const drops = actions[c.position] === 'block' ? c.decided : 0;
        return [{ path: at.document, ref: c.ref, evaluations: c.evaluations, hits: c.matches, decided: c.decided, drops, ns_per_evaluation: c.ns_per_evaluation }];
      }),
      failure: null,
      warnings,
    };
  } catch (err) {
    if (err instanceof UserError) return none(err.message);
    throw err;
  }
}
