// pcapng timestamps: a 64-bit count of units since the epoch, written as two 32-bit halves, where
// an interface's `if_tsresol` sets the unit (10^-k or 2^-k seconds; microseconds by default) and
// `if_tsoffset` adds whole seconds. A nanosecond count since 1970 is about 1.7e18, past the 2^53
// a double holds exactly, so the split into seconds and nanoseconds is a long division by 16-bit
// digits, exact with plain numbers for every unit down to a nanosecond (10^-k, k <= 9) and to
// 2^-32 s. Finer units (picoseconds, ...) are rare and take an exact BigInt path.

const TWO_32 = 4294967296;

/** The time unit and offset of one pcapng interface; converts its raw timestamps. */
export class TimeBase {
  /** result of the last convert(): seconds since the epoch and nanoseconds within the second */
  sec = 0;
  nsec = 0;
  private readonly unitsPerSecond: number;
  private readonly bigUnits: bigint;
  /** nanoseconds per unit when that is an integer (10^-k, k <= 9), else 0 */
  private readonly nsPerUnit: number;
  /** for 2^-k units (k <= 32): 2^(9-k), so nsec = floor(rem * 5^9 * scale) exactly */
  private readonly pow2Scale: number;
  private readonly exact: boolean;

  /**
   * @param resolution the if_tsresol byte: bit 7 clear = 10^-value s, set = 2^-(value & 0x7f) s
   * @param offsetSeconds if_tsoffset
   */
  constructor(resolution = 6, private readonly offsetSeconds = 0) {
    const exponent = resolution & 0x7f;
    const binary = (resolution & 0x80) !== 0;
    this.bigUnits = binary ? 1n << BigInt(exponent) : 10n ** BigInt(exponent);
    this.unitsPerSecond = Number(this.bigUnits);
    this.nsPerUnit = !binary && exponent <= 9 ? 10 ** (9 - exponent) : 0;
    this.pow2Scale = binary && exponent <= 32 ? 2 ** (9 - exponent) : 0;
    this.exact = this.nsPerUnit !== 0 || this.pow2Scale !== 0;
  }

  /** Converts the timestamp (high, low) into this.sec and this.nsec. */
  convert(high: number, low: number): void {
    if (!this.exact) {
      this.convertBig(high, low);
      return;
    }
    const u = this.unitsPerSecond;
    const q1 = Math.floor(high / u);
    const a = (high - q1 * u) * 65536 + (low >>> 16);
    const q2 = Math.floor(a / u);
    const b = (a - q2 * u) * 65536 + (low & 0xffff);
    const q3 = Math.floor(b / u);
    const rem = b - q3 * u;
    this.sec = q1 * TWO_32 + q2 * 65536 + q3 + this.offsetSeconds;
    this.nsec = this.nsPerUnit !== 0 ? rem * this.nsPerUnit : Math.floor(rem * 1953125 * this.pow2Scale);
  }

  private convertBig(high: number, low: number): void {
    const units = (BigInt(high) << 32n) | BigInt(low);
    const rem = units % this.bigUnits;
    this.sec = Number(units / this.bigUnits) + this.offsetSeconds;
    this.nsec = Number((rem * 1_000_000_000n) / this.bigUnits);
  }
}
