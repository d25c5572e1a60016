// What a report page shows: a replay's summary as `replay --format json` prints it, with the
// warnings of the run and the configuration it used (a snapshot file or an API address).
import type { ReplayReport } from '../sim/summary.js';

export interface ReportData extends ReplayReport {
  warnings?: string[];
  /** the snapshot file or API the configuration came from; null or absent when none was given */
  configuration?: string | null;
}
