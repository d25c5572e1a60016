// The whole path against ground truth, one measure per row: the replay's table and the HTML report
// both print these rows, so a label always stands for the same number.
import type { LabelScore } from '../../atp/index.js';

export interface LabelScoreRow {
  measure: string;
  /** packets or flows dropped */
  dropped: number;
  /** packets or flows in all */
  total: number;
  /** whether these are attack packets (dropping them is the point) or legitimate traffic */
  traffic: 'attack' | 'legitimate';
}

export function labelScoreRows(l: LabelScore): LabelScoreRow[] {
  return [
    { measure: 'attack packets', dropped: l.attackDropped, total: l.attackPackets, traffic: 'attack' },
    { measure: 'legitimate packets', dropped: l.legitDropped, total: l.legitPackets, traffic: 'legitimate' },
    { measure: 'legitimate flows with a dropped packet', dropped: l.legitFlowsDropped, total: l.legitFlows, traffic: 'legitimate' },
  ];
}
