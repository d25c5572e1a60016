// `edgesim import`: a snapshot file into an account of a running API. Each resource present in
// the file replaces the account's; resources absent from the file are left alone.
import type { Command } from 'commander';
import { addApiOptions, apiTarget, type ApiFlags } from './export.js';

export function register(program: Command): void {
  addApiOptions(
    program
      .command('import')
      .description('write a snapshot file into an account of a running API (each resource in the file replaces the account\'s)')
      .argument('<snapshot.json>', 'the snapshot file'),
  ).action(async (file: string, flags: ApiFlags) => {
    const target = apiTarget(flags);
    const { describeImport, importSnapshot } = await import('../../config/api-client.js');
    const { loadSnapshotFile } = await import('../../config/load.js');
    const summary = await importSnapshot(await loadSnapshotFile(file), target);
    process.stdout.write(`imported ${file} into account ${target.account}: ${describeImport(summary)}\n`);
  });
}
