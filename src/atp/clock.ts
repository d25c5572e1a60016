// ATP's time: seconds since the first packet it saw, taken from the capture's timestamps and never
// going back. Captures are not always in time order (packets merged from two interfaces, a clock
// corrected during the capture, a file written in reverse), and a rate meter, a mitigation period
// or a connection timeout measured on a time that goes back gives nonsense (negative periods,
// "-15.5 s of traffic"). So, as Zeek's network time does, a packet earlier than the latest one seen
// is taken at the latest time seen. A step back longer than the rate window (a clock corrected by
// hours or years) would otherwise pile every later packet onto one instant until the capture's
// time catches up (never, after a jump of years), so there the clock is re-anchored: later packets
// keep their spacing from the one that stepped back. The capture reader warns about such captures.

/** The monotonic clock of one ATP run. */
export class MonotonicClock {
  private t0Sec = -1;
  private t0Nsec = 0;
  /** added to capture time after a re-anchoring (seconds) */
  private offset = 0;
  /** the latest time given out (seconds since the first packet) */
  latest = 0;

  /** `reanchorSeconds`: a step back longer than this re-anchors the clock */
  constructor(private readonly reanchorSeconds: number) {}

  get started(): boolean {
    return this.t0Sec >= 0;
  }

  /** epoch seconds of the first packet */
  get start(): number {
    return this.t0Sec + this.t0Nsec / 1e9;
  }

  /** The time of a packet stamped (sec, nsec): never before the previous packet's. */
  at(sec: number, nsec: number): number {
    if (this.t0Sec < 0) {
      this.t0Sec = sec;
      this.t0Nsec = nsec;
    }
    const t = sec - this.t0Sec + (nsec - this.t0Nsec) / 1e9 + this.offset;
    if (t >= this.latest) {
      this.latest = t;
      return t;
    }
    if (this.latest - t > this.reanchorSeconds) this.offset += this.latest - t;
    return this.latest;
  }
}
