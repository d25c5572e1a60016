// `edgesim diff`: picks the mode — a capture decided by two configurations (capture.ts) or two
// configurations compared over every possible packet (--static, static.ts) — and the two sides:
// --config and --against, or the before and after of a Terraform plan's changes (--plan, with any
// --config files added to both sides); and checks that the arguments fit them.
import { UsageError } from '../../../errors.js';
import type { CaptureDiffFlags } from './capture.js';
import { filesSide, planSides, type SideFlags } from './sides.js';

export interface DiffFlags extends Omit<CaptureDiffFlags, 'format'>, SideFlags {
  /** `table` is the name text had before --format was the same on every command */
  format: CaptureDiffFlags['format'] | 'table';
  static?: boolean;
  against?: string[];
}

export async function run(inputs: string[], given: DiffFlags): Promise<void> {
  const flags = { ...given, format: given.format === 'table' ? 'text' : given.format };
  if (flags.plan !== undefined && flags.against !== undefined) throw new UsageError('--plan gives both sides of the change: drop --against');
  if (flags.static === true) {
    if (flags.plan !== undefined) {
      if (inputs.length > 0) throw new UsageError('diff --static --plan PLAN.json takes no other file (add files to both sides with --config)');
      return (await import('./static.js')).runStaticDiff(...planSides(flags), flags);
    }
    if (inputs.length !== 2 || flags.config !== undefined || flags.against !== undefined) {
      throw new UsageError('diff --static takes two configuration files (edgesim diff --static BEFORE.json AFTER.json) or --plan PLAN.json');
    }
    return (await import('./static.js')).runStaticDiff(filesSide([inputs[0]!], flags), filesSide([inputs[1]!], flags), flags);
  }
  if (inputs.length === 0) throw new UsageError('diff takes a capture file, or several merged by time (or --static BEFORE.json AFTER.json)');
  if (flags.plan !== undefined) return (await import('./capture.js')).runCaptureDiff(inputs, ...planSides(flags), flags);
  // worded as commander words a missing required option
  if (flags.config === undefined) throw new UsageError("required option '-c, --config <before.json>' not specified (or give --plan PLAN.json)");
  if (flags.against === undefined) throw new UsageError("required option '--against <after.json>' not specified");
  return (await import('./capture.js')).runCaptureDiff(inputs, filesSide(flags.config, flags), filesSide(flags.against, flags), flags);
}
