// `edgesim import`, run: a configuration file (any format --config reads) into an account of a running API. The plan (what would be
// created, changed and destroyed) is worked out and checked before the first write; `--dry-run`
// prints it, with what the server checked, and stops. Each resource present in the file replaces
// the account's (lists: only those the file names); the summary line says which were replaced and
// which were left. Ctrl-C or SIGTERM stops the writes between two requests and puts back what was
// written (exit 130 or 143, one line saying what the account holds); a second signal stops at once,
// with a line saying which resource holds what.
import { describeChecks, describeImport, describePlan, ImportRun, importSnapshot, planImport } from '../../../config/import.js';
import { apiTarget, loadConfiguration } from '../../configuration.js';
import { Interrupts } from '../../interrupt.js';
import type { ApiFlags } from '../../options.js';
import { warn } from '../../output.js';

export interface ImportFlags extends ApiFlags {
  dryRun?: boolean;
}

export async function run(file: string, flags: ImportFlags): Promise<void> {
  const target = apiTarget(flags);
  // rules may use lists the account already holds: the import checks them against the account
  const read = await loadConfiguration({ config: [file] }, { unknownLists: 'allow' });
  // a rule's name made by a reader (Terraform rules without ref) is not written as its ref
  const { withoutMadeRefs } = await import('../../../config/inputs/index.js');
  const snapshot = withoutMadeRefs(read.snapshot, read.madeRefs ?? new Set());
  const writes = new ImportRun(target.account);
  const interrupts = new Interrupts((signal) => process.stderr.write(`edgesim: ${writes.describeAtOnce(signal)}\n`));
  try {
    if (flags.dryRun) {
      const plan = await planImport(snapshot, target, file, { signal: interrupts.signal });
      process.stdout.write(`${describePlan(plan)}${describeChecks(plan)}`);
      return;
    }
    const summary = await importSnapshot(snapshot, target, file, { signal: interrupts.signal, run: writes });
    process.stdout.write(`imported ${file} into account ${target.account}: ${describeImport(summary)}\n`);
    if (interrupts.signal.aborted) warn(`${String(interrupts.signal.reason)} came during the last write, which finished: the import is complete`);
  } finally {
    interrupts.end();
  }
}
