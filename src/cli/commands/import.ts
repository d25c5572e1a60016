// `edgesim import`: a snapshot file into an account of a running API. Each resource present in
// the file replaces the account's; resources absent from the file are left alone.
import type { Command } from 'commander';
import { addApiOptions, apiTarget, type ApiFlags } from './export.js';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function register(program: Command): void {
  addApiOptions(
    program
      .command('import')
      .description('write a snapshot file into an account of a running API (each resource in the file replaces the account\'s)')
      .argument('<snapshot.json>', 'the snapshot file'),
  ).action(async (file: string, flags: ApiFlags) => {
    const target = apiTarget(flags);
    const { importSnapshot } = await import('../../config/api-client.js');
    const { loadSnapshotFile } = await import('../../config/load.js');
    const s = await importSnapshot(await loadSnapshotFile(file), target);
    process.stdout.write(`imported ${file} into account ${target.account}: ${[
      plural(s.prefixes, 'prefix', 'prefixes'),
      plural(s.allowlist, 'allowlist entry', 'allowlist entries'),
      plural(s.rules, 'protection rule', 'protection rules'),
      plural(s.filters, 'filter', 'filters'),
      plural(s.rulesets, 'ruleset', 'rulesets'),
      `${plural(s.lists, 'list', 'lists')} (${plural(s.listItems, 'item', 'items')})`,
    ].join(', ')}\n`);
  });
}
