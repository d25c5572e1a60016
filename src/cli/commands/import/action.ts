// `edgesim import`, run: a configuration file (any format --config reads) into an account of a running API. The plan (what would be
// created, changed and destroyed) is worked out and checked before the first write; `--dry-run`
// prints it and stops. Each resource present in the file replaces the account's (lists: only those
// the file names); the summary line says which were replaced and which were left.
import { describeImport, describePlan, importSnapshot, planImport } from '../../../config/import.js';
import { apiTarget, loadConfiguration } from '../../configuration.js';
import type { ApiFlags } from '../../options.js';

export interface ImportFlags extends ApiFlags {
  dryRun?: boolean;
}

export async function run(file: string, flags: ImportFlags): Promise<void> {
  const target = apiTarget(flags);
  // rules may use lists the account already holds: the import checks them against the account
  const { snapshot } = await loadConfiguration({ config: [file] }, { unknownLists: 'allow' });
  if (flags.dryRun) {
    process.stdout.write(describePlan(await planImport(snapshot, target, file)));
    return;
  }
  const summary = await importSnapshot(snapshot, target, file);
  process.stdout.write(`imported ${file} into account ${target.account}: ${describeImport(summary)}\n`);
}
