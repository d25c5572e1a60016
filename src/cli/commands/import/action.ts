// `edgesim import`, run: a snapshot file into an account of a running API. Each resource present in
// the file replaces the account's; resources absent from the file are left alone, and the summary
// line says which were replaced and which were left.
import { describeImport, importSnapshot } from '../../../config/api-client.js';
import { apiTarget, loadConfiguration } from '../../configuration.js';
import type { ApiFlags } from '../../options.js';

export async function run(file: string, flags: ApiFlags): Promise<void> {
  const target = apiTarget(flags);
  const summary = await importSnapshot((await loadConfiguration({ config: [file] })).snapshot, target);
  process.stdout.write(`imported ${file} into account ${target.account}: ${describeImport(summary)}\n`);
}
