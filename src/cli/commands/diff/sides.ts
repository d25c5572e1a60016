// The two configurations diff compares: files named by --config and --against, or the before and
// after sides of a Terraform plan's changes (--plan), with any --config files added to both.
import type { LoadOptions } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';

/** The flags that name diff's configurations, --against aside. */
export type SideFlags = Pick<ConfigFlags, 'config' | 'plan' | 'configFormat' | 'tfDir' | 'account'>;

/** One side of the comparison: the configuration flags to load, how, and its name in reports. */
export interface DiffSide {
  flags: ConfigFlags;
  options: LoadOptions;
  name: string;
}

/**
 * A plan's two sides. Only the after side's rules are placed in the .tf files (when the report
 * places rules): those files are what the plan is made from, the before side is what is deployed.
 */
export function planSides(flags: SideFlags): [DiffSide, DiffSide] {
  const side = (which: 'before' | 'after'): DiffSide => ({
    flags: { plan: flags.plan, config: flags.config, configFormat: flags.configFormat, account: flags.account, ...(which === 'after' ? { tfDir: flags.tfDir } : {}) },
    options: { side: which, places: which === 'after' },
    name: `${flags.plan!} (${which})`,
  });
  return [side('before'), side('after')];
}

export function filesSide(files: string[], flags: SideFlags): DiffSide {
  return { flags: { config: files, configFormat: flags.configFormat, tfDir: flags.tfDir, account: flags.account }, options: { places: true }, name: files.join(', ') };
}

/** What makes diff exit 1: any packet decided differently (verdict, deciding rule or stage), or a verdict change only. */
export type FailOn = 'decision' | 'verdict';

/** Whether the changes found fail the command at `failOn`. */
export function failed(failOn: FailOn, changes: { decision: boolean; verdict: boolean }): boolean {
  return failOn === 'verdict' ? changes.verdict : changes.decision;
}
