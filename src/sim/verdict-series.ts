// Verdicts over time for the report's chart, small whatever the capture's length: packets are counted
// in time buckets (pass, and drop by the stage that dropped), and when a packet falls past the last of
// MAX_BUCKETS the width doubles and neighbouring buckets merge, so a 10M-packet, hour-long capture
// gives at most MAX_BUCKETS rows. Widths are 1 ms times a power of two. Counting allocates nothing:
// one Float64Array holds every column; merging works in place.

/** The columns, in the order of VerdictSeriesReport.counts' keys. */
export const SERIES_COLUMNS = ['pass', 'firewall', 'syn_protection', 'tcp_flow_protection'] as const;
export type SeriesColumn = (typeof SERIES_COLUMNS)[number];

export const MAX_BUCKETS = 2000;
const BASE_WIDTH = 0.001;
const COLUMNS = SERIES_COLUMNS.length;

export interface VerdictSeriesReport {
  /** epoch seconds where bucket 0 starts (the first packet's time); null: no packets */
  start: number | null;
  /** bucket k holds the packets of [start + k·bucketSeconds, start + (k+1)·bucketSeconds) */
  bucketSeconds: number;
  /** packets per bucket: passed, and dropped by each stage; every column has the same length */
  counts: Record<SeriesColumn, number[]>;
}

export class VerdictSeries {
  /** bucket k, column c at counts[k * COLUMNS + c] */
  private readonly counts: Float64Array;
  private width = BASE_WIDTH;
  private used = 0;
  private startSec = -1;
  private startNsec = 0;

  constructor(private readonly maxBuckets = MAX_BUCKETS) {
    this.counts = new Float64Array(maxBuckets * COLUMNS);
  }

  /** Counts one packet at capture time (sec, nsec) in `column` (an index into SERIES_COLUMNS). */
  add(sec: number, nsec: number, column: number): void {
    if (this.startSec < 0) {
      this.startSec = sec;
      this.startNsec = nsec;
    }
    const t = sec - this.startSec + (nsec - this.startNsec) / 1e9;
    // a packet stamped before the first one (captures are not always in order) goes to bucket 0
    let k = t > 0 ? Math.floor(t / this.width) : 0;
    while (k >= this.maxBuckets) {
      this.halve();
      k = Math.floor(t / this.width);
    }
    if (k >= this.used) this.used = k + 1;
    this.counts[k * COLUMNS + column]++;
  }

  // doubles the width: bucket k becomes the sum of buckets 2k and 2k + 1
  private halve(): void {
    const c = this.counts;
    const half = Math.ceil(this.used / 2);
    for (let k = 0; k < half; k++) {
      for (let j = 0; j < COLUMNS; j++) {
        const a = 2 * k * COLUMNS + j;
        c[k * COLUMNS + j] = c[a] + (2 * k + 1 < this.used ? c[a + COLUMNS] : 0);
      }
    }
    c.fill(0, half * COLUMNS);
    this.used = half;
    this.width *= 2;
  }

  report(): VerdictSeriesReport {
    const counts = {} as Record<SeriesColumn, number[]>;
    SERIES_COLUMNS.forEach((name, j) => {
      const column: number[] = new Array(this.used);
      for (let k = 0; k < this.used; k++) column[k] = this.counts[k * COLUMNS + j];
      counts[name] = column;
    });
    return {
      start: this.startSec < 0 ? null : this.startSec + this.startNsec / 1e9,
      bucketSeconds: this.width,
      counts,
    };
  }
}
