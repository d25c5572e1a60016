// Number, share and table formatting shared by the replay summary's sections.
import Table from 'cli-table3';
import { groupDigits } from '../../numbers.js';

export const count = (v: number): string => groupDigits(Math.round(v));

/** part of whole as a percentage: whole numbers at 0% and 100%, two decimals between */
export const share = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(part === whole || part === 0 ? 0 : 2)}%`;

/** a table with a header row and no rules between body rows */
export function table(head: string[]): Table.Table {
  return new Table({ head, style: { head: [], border: [] }, chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } });
}
