// Verdicts over time for the report's chart, small whatever the capture's length: packets are counted
// in time buckets (pass, and drop by the stage that dropped), and when a packet falls past the last of
// MAX_BUCKETS the width doubles and neighbouring buckets merge, so a 10M-packet, hour-long capture
// gives at most MAX_BUCKETS rows. Widths are 1 ms times a power of two. Counting allocates nothing:
// one Float64Array holds every column; merging works in place.
//
// Series counted over consecutive parts of a capture from the same start (parallel replays,
// sim/jobs/) add up exactly: halving is what a wider series would have counted, so both are brought
// to the wider width, then added bucket by bucket.

import { STAGES, type AtpStage } from '../atp/vocabulary.js';

export type SeriesColumn = 'pass' | 'firewall' | AtpStage;
/** The columns, in the order of VerdictSeriesReport.counts' keys: pass, then each stage that drops (protection's components from their list). */
export const SERIES_COLUMNS: readonly SeriesColumn[] = ['pass', 'firewall', ...STAGES];

export const MAX_BUCKETS = 2000;
const BASE_WIDTH = 0.001;
const COLUMNS = SERIES_COLUMNS.length;
/**
 * The start's seconds before there is one: below 0, and not a whole number, so that V8 lays the
 * field out as a double. The nanoseconds since the start are then computed in doubles from the
 * first packet on; from whole numbers V8 took them for 32-bit integers, which overflow 2.1 s into
 * a capture and threw away the optimized read loop mid-replay. (Doubles hold them exactly.)
 */
const NOT_STARTED = -0.5;

export interface VerdictSeriesReport {
  /** epoch seconds where bucket 0 starts (the first packet's time); null: no packets */
  start: number | null;
  /** bucket k holds the packets of [start + k·bucketSeconds, start + (k+1)·bucketSeconds) */
  bucketSeconds: number;
  /** packets per bucket: passed, and dropped by each stage; every column has the same length */
  counts: Record<SeriesColumn, number[]>;
}

/** A series' counts as plain data (to send to another thread and add there). */
export interface VerdictSeriesParts {
  width: number;
  used: number;
  /** the first `used` buckets' counts, COLUMNS a bucket */
  counts: Float64Array;
}

export class VerdictSeries {
  /** bucket k, column c at counts[k * COLUMNS + c] */
  private readonly counts: Float64Array;
  private width = BASE_WIDTH;
  /** buckets per nanosecond (1 / the width in ns): a multiplication per packet instead of divisions; halved with the width, exactly */
  private perNs = 1 / (BASE_WIDTH * 1e9);
  private used = 0;
  private startSec = NOT_STARTED;
  private startNsec = 0;

  constructor(private readonly maxBuckets = MAX_BUCKETS) {
    this.counts = new Float64Array(maxBuckets * COLUMNS);
  }

  /** No start yet: no packet counted, no start given. */
  isEmpty(): boolean {
    return this.startSec < 0;
  }

  /** Starts the series at a given time rather than at its first packet's (a later part of a capture). */
  startAt(sec: number, nsec: number): void {
    this.startSec = sec;
    this.startNsec = nsec;
  }

  parts(): VerdictSeriesParts {
    return { width: this.width, used: this.used, counts: this.counts.slice(0, this.used * COLUMNS) };
  }

  /** Adds a series counted from the same start (see startAt). */
  absorb(other: VerdictSeriesParts): void {
    while (this.width < other.width) this.halve();
    const c = this.counts;
    // the other series' buckets, each merged `factor` to one where this series is wider
    const factor = Math.round(this.width / other.width);
    for (let k = 0; k < other.used; k++) {
      const into = Math.floor(k / factor);
      if (into >= this.used) this.used = into + 1;
      for (let j = 0; j < COLUMNS; j++) c[into * COLUMNS + j] += other.counts[k * COLUMNS + j]!;
    }
  }

  /** Counts one packet at capture time (sec, nsec) in `column` (an index into SERIES_COLUMNS). */
  add(sec: number, nsec: number, column: number): void {
    if (this.startSec < 0) {
      this.startSec = sec;
      this.startNsec = nsec;
    }
    // nanoseconds since the start (exact for 104 days); halving perNs halves the product exactly, so
    // a packet's bucket at twice the width is half its bucket (rounded down), as halve() merges them
    const ns = (sec - this.startSec) * 1e9 + (nsec - this.startNsec);
    // a packet stamped before the first one (captures are not always in order) goes to bucket 0
    let k = ns > 0 ? Math.floor(ns * this.perNs) : 0;
    while (k >= this.maxBuckets) {
      this.halve();
      k = Math.floor(ns * this.perNs);
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
    this.perNs *= 0.5;
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
