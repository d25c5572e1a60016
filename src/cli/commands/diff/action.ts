// `edgesim diff`: picks the mode — a capture decided by two configurations (capture.ts) or two
// snapshots compared over every possible packet (--static, static.ts) — and checks that the
// arguments fit it.
import { UsageError } from '../../../errors.js';
import type { CaptureDiffFlags } from './capture.js';

export interface DiffFlags extends Omit<CaptureDiffFlags, 'format'> {
  /** `table` is the name text had before --format was the same on every command */
  format: CaptureDiffFlags['format'] | 'table';
  static?: boolean;
}

export async function run(inputs: string[], given: DiffFlags): Promise<void> {
  const flags = { ...given, format: given.format === 'table' ? 'text' : given.format };
  if (flags.static === true) {
    if (inputs.length !== 2 || flags.config !== undefined || flags.against !== undefined) {
      throw new UsageError('diff --static takes two snapshot files: edgesim diff --static BEFORE.json AFTER.json');
    }
    return (await import('./static.js')).runStaticDiff(inputs[0]!, inputs[1]!, flags);
  }
  if (inputs.length !== 1) throw new UsageError('diff takes one capture file (or --static BEFORE.json AFTER.json)');
  // worded as commander words a missing required option
  if (flags.config === undefined) throw new UsageError("required option '-c, --config <before.json>' not specified");
  if (flags.against === undefined) throw new UsageError("required option '--against <after.json>' not specified");
  return (await import('./capture.js')).runCaptureDiff(inputs[0]!, flags.config, flags.against, flags);
}
