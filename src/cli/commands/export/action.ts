// `edgesim export`, run: the account's whole configuration from a running API, as a snapshot file
// in the vendor's spelling (phase `magic_transit`), so it can go to the vendor's API unchanged.
import { exportSnapshot, inVendorSpelling } from '../../../config/api-client.js';
import { apiTarget } from '../../configuration.js';
import type { ApiFlags } from '../../options.js';
import { writeOutput } from '../../output.js';

export interface ExportFlags extends ApiFlags {
  out?: string;
}

export async function run(flags: ExportFlags): Promise<void> {
  const snapshot = inVendorSpelling(await exportSnapshot(apiTarget(flags)));
  writeOutput(flags.out, `${JSON.stringify(snapshot, null, 2)}\n`);
}
