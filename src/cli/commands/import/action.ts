// `edgesim import`, run: a snapshot file into an account of a running API. Each resource present in
// the file replaces the account's; resources absent from the file are left alone.
import { importSnapshot } from '../../../config/api-client.js';
import { loadSnapshotFile } from '../../../config/load.js';
import { apiTarget } from '../../configuration.js';
import type { ApiFlags } from '../../options.js';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export async function run(file: string, flags: ApiFlags): Promise<void> {
  const target = apiTarget(flags);
  const s = await importSnapshot(await loadSnapshotFile(file), target);
  process.stdout.write(
    `imported ${file} into account ${target.account}: ${[
      plural(s.prefixes, 'prefix', 'prefixes'),
      plural(s.allowlist, 'allowlist entry', 'allowlist entries'),
      plural(s.rules, 'protection rule', 'protection rules'),
      plural(s.filters, 'filter', 'filters'),
      plural(s.rulesets, 'ruleset', 'rulesets'),
      `${plural(s.lists, 'list', 'lists')} (${plural(s.listItems, 'item', 'items')})`,
    ].join(', ')}\n`,
  );
}
