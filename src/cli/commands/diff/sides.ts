// The two configurations diff compares: files named by --config and --against, or the before and
// after sides of a Terraform plan's changes (--plan), with any --config files added to both.
import type { LoadOptions } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';

/** The flags that name diff's configurations, --against aside. */
export type SideFlags = Pick<ConfigFlags, 'config' | 'plan' | 'configFormat' | 'account'>;

/** One side of the comparison: the configuration flags to load, how, and its name in reports. */
export interface DiffSide {
  flags: ConfigFlags;
  options: LoadOptions;
  name: string;
}

export function planSides(flags: SideFlags): [DiffSide, DiffSide] {
  const side = (which: 'before' | 'after'): DiffSide => ({
    flags: { plan: flags.plan, config: flags.config, configFormat: flags.configFormat, account: flags.account },
    options: { side: which },
    name: `${flags.plan!} (${which})`,
  });
  return [side('before'), side('after')];
}

export function filesSide(files: string[], flags: SideFlags): DiffSide {
  return { flags: { config: files, configFormat: flags.configFormat, account: flags.account }, options: {}, name: files.join(', ') };
}
