// The packet rate of one component in one scope, measured over the capture's own timestamps, and
// the on/off state of its mitigation. The vendor derives thresholds from a traffic profile and the
// customer's sensitivities without publishing numbers; this is the simulator's model of it (see
// README.md): a sustained rate (packets in the last `rateWindowSeconds`) and a burst rate (packets
// in the current `burstWindowSeconds` tick), thresholds from a baseline (configured, or the highest
// sustained rate seen in the learning window) times a factor per sensitivity, never below absolute
// floors; mitigation turns on when either rate crosses its threshold and off, with hysteresis, once
// both are well below and it has been on for a minimum time.
//
// Counts live in a ring of ticks (a Uint32Array), so counting a packet allocates nothing; the
// report's timeline grows by one point per `timelineSeconds` in which the meter saw packets.
import type { AtpOptions, RateOptions, Sensitivity } from './options.js';
import type { AtpStage } from './vocabulary.js';

/** One timeline point: what the meter saw in [time, time + timelineSeconds). */
export interface TimelinePoint {
  /** seconds since the first inspected packet */
  time: number;
  packets: number;
  /** highest sustained rate in the interval (pps) */
  ratePps: number;
  /** highest burst rate in the interval (pps) */
  burstPps: number;
  /** thresholds in force (null while still learning) */
  rateThresholdPps: number | null;
  burstThresholdPps: number | null;
  /** mitigation was on at some moment of the interval */
  mitigating: boolean;
}

/** A period of mitigation, in seconds since the first inspected packet; `end` null: still on when the capture ended. */
export interface MitigationPeriod {
  start: number;
  end: number | null;
}

export class RateMeter {
  /** threshold inputs and results; `known` false while the baseline is still being learned */
  known = false;
  baselinePps = 0;
  readonly baselineSource: 'configured' | 'learned';
  ratePps = 0;
  burstPps = 0;
  active = false;

  packets = 0;
  peakRatePps = 0;
  peakBurstPps = 0;
  readonly periods: number[] = [];

  private readonly ticks: Uint32Array;
  private readonly tick: number;
  private tickAt = -1;
  private sum = 0;
  private learnedPeak = 0;
  private activeSince = 0;
  private lastCount = 0;

  private readonly tl: number[][] = [[], [], [], [], [], [], []];
  private interval = -1;
  private ivPackets = 0;
  private ivRate = 0;
  private ivBurst = 0;
  private ivActive = false;

  constructor(
    readonly stage: AtpStage,
    readonly scope: string,
    readonly name: string,
    private readonly rateSensitivity: Sensitivity,
    private readonly burstSensitivity: Sensitivity,
    private readonly options: AtpOptions,
    private readonly rate: RateOptions,
  ) {
    this.tick = options.burstWindowSeconds;
    this.ticks = new Uint32Array(Math.max(1, Math.round(options.rateWindowSeconds / options.burstWindowSeconds)));
    this.baselineSource = rate.baselinePps === null ? 'learned' : 'configured';
    if (rate.baselinePps !== null) this.fix(rate.baselinePps);
    else if (options.learningSeconds === 0) this.fix(0);
  }

  private fix(baseline: number): void {
    const o = this.options;
    this.known = true;
    this.baselinePps = baseline;
    this.ratePps = Math.max(this.rate.minRatePps, baseline * o.rateFactor[this.rateSensitivity]);
    this.burstPps = Math.max(this.rate.minBurstPps, this.ratePps * o.burstFactor[this.burstSensitivity]);
  }

  private advance(t: number): void {
    const at = Math.floor(t / this.tick);
    if (at <= this.tickAt) return;
    const ticks = this.ticks;
    const n = ticks.length;
    if (this.tickAt < 0 || at - this.tickAt >= n) {
      ticks.fill(0);
      this.sum = 0;
    } else {
      for (let k = this.tickAt + 1; k <= at; k++) {
        const i = k % n;
        this.sum -= ticks[i];
        ticks[i] = 0;
      }
    }
    this.tickAt = at;
  }

  /** The sustained and burst rates (pps) at time `t` without counting anything (for explanations). */
  ratesAt(t: number): { ratePps: number; burstPps: number } {
    const at = Math.floor(t / this.tick);
    const n = this.ticks.length;
    if (this.tickAt < 0 || at - this.tickAt >= n) return { ratePps: 0, burstPps: 0 };
    if (at <= this.tickAt) return { ratePps: this.sum / this.options.rateWindowSeconds, burstPps: this.ticks[this.tickAt % n] / this.tick };
    let sum = this.sum;
    for (let k = this.tickAt + 1; k <= at; k++) sum -= this.ticks[k % n];
    return { ratePps: sum / this.options.rateWindowSeconds, burstPps: 0 };
  }

  /** Counts one packet at time `t` (seconds since the first packet) and returns whether mitigation is on. */
  count(t: number): boolean {
    const o = this.options;
    this.advance(t);
    if (!this.known && t >= o.learningSeconds) this.fix(this.learnedPeak);
    const i = this.tickAt % this.ticks.length;
    this.ticks[i]++;
    this.sum++;
    this.packets++;
    const rate = this.sum / o.rateWindowSeconds;
    const burst = this.ticks[i] / this.tick;
    if (rate > this.peakRatePps) this.peakRatePps = rate;
    if (burst > this.peakBurstPps) this.peakBurstPps = burst;
    if (!this.known) {
      if (rate > this.learnedPeak) this.learnedPeak = rate;
    } else if (!this.active) {
      if (rate > this.ratePps || burst > this.burstPps) {
        this.active = true;
        this.activeSince = t;
        this.periods.push(t, -1);
      }
    } else if (t - this.activeSince >= o.hysteresis.minActiveSeconds && rate < this.ratePps * o.hysteresis.offRatio && burst < this.burstPps * o.hysteresis.offRatio) {
      this.active = false;
      this.periods[this.periods.length - 1] = this.endEstimate(t);
    }
    this.sample(t, rate, burst);
    this.lastCount = t;
    return this.active;
  }

  // When mitigation really ended: packets are counted only when they come, so after a quiet gap the
  // rate had fallen once the window emptied after the last packet (but not before the minimum time).
  private endEstimate(t: number): number {
    return Math.min(t, Math.max(this.activeSince + this.options.hysteresis.minActiveSeconds, this.lastCount + this.options.rateWindowSeconds));
  }

  private sample(t: number, rate: number, burst: number): void {
    const iv = Math.floor(t / this.options.timelineSeconds);
    if (iv !== this.interval) {
      this.flush();
      this.interval = iv;
      this.ivActive = this.active;
    }
    this.ivPackets++;
    if (rate > this.ivRate) this.ivRate = rate;
    if (burst > this.ivBurst) this.ivBurst = burst;
    if (this.active) this.ivActive = true;
  }

  private flush(): void {
    if (this.ivPackets === 0) return;
    const [time, packets, rate, burst, rateT, burstT, active] = this.tl;
    time.push(this.interval * this.options.timelineSeconds);
    packets.push(this.ivPackets);
    rate.push(this.ivRate);
    burst.push(this.ivBurst);
    rateT.push(this.known ? this.ratePps : -1);
    burstT.push(this.known ? this.burstPps : -1);
    active.push(this.ivActive ? 1 : 0);
    this.ivPackets = 0;
    this.ivRate = 0;
    this.ivBurst = 0;
  }

  /** Closes the current timeline point and the learning; `end` is the time of the capture's last packet. */
  finish(end: number): void {
    this.flush();
    this.interval = -1;
    if (!this.known && end >= this.options.learningSeconds) this.fix(this.learnedPeak);
    if (this.active && end - this.lastCount > this.options.rateWindowSeconds && end - this.activeSince >= this.options.hysteresis.minActiveSeconds) {
      this.active = false;
      this.periods[this.periods.length - 1] = this.endEstimate(end);
    }
  }

  /** What a reader should know about where the thresholds came from, or null. */
  warning(): string | null {
    const o = this.options;
    if (this.packets === 0 || this.baselineSource !== 'learned') return null;
    if (!this.known) {
      return `the capture ended inside the ${o.learningSeconds} s learning window, so no threshold was set and nothing was mitigated; give the normal rate with --baseline-pps ${this.stage}=PPS (options.${this.stage}.baselinePps) or set a shorter learningSeconds`;
    }
    if (this.baselinePps * o.rateFactor[this.rateSensitivity] <= this.rate.minRatePps) return null;
    return `thresholds were learned from the first ${o.learningSeconds} s of the capture (peak ${Math.round(this.baselinePps)} pps); if the capture starts during an attack, give the normal rate with --baseline-pps ${this.stage}=PPS (options.${this.stage}.baselinePps)`;
  }

  mitigations(): MitigationPeriod[] {
    const out: MitigationPeriod[] = [];
    for (let k = 0; k < this.periods.length; k += 2) out.push({ start: this.periods[k], end: this.periods[k + 1] < 0 ? null : this.periods[k + 1] });
    return out;
  }

  timeline(): TimelinePoint[] {
    const [time, packets, rate, burst, rateT, burstT, active] = this.tl;
    return time.map((t, k) => ({
      time: t,
      packets: packets[k],
      ratePps: rate[k],
      burstPps: burst[k],
      rateThresholdPps: rateT[k] < 0 ? null : rateT[k],
      burstThresholdPps: burstT[k] < 0 ? null : burstT[k],
      mitigating: active[k] === 1,
    }));
  }
}
