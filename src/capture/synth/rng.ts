// The one source of randomness of the synthetic scenarios. A capture must be byte-identical for a
// given seed on every machine and Node version, so nothing here touches Math.random: sfc32 (a small,
// fast, well-tested 32-bit generator) seeded through splitmix32 from the scenario's seed and a
// stream number, so that every part of a scenario draws from its own stream and adding a part
// never changes the packets of the others.

/** A deterministic pseudo-random number generator (sfc32). */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for `seed` (0..2^32-1) and an independent `stream` of it. */
  constructor(seed: number, stream = 0) {
    let s = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** A uniform integer in [0, n), n <= 2^32. */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** A uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** A float between lo and hi, uniform on a log scale (delays, round-trip times). */
  logUniform(lo: number, hi: number): number {
    return lo * Math.pow(hi / lo, this.float());
  }

  /** Fills `out` with random bytes. */
  fill(out: Uint8Array): void {
    let i = 0;
    for (; i + 4 <= out.length; i += 4) {
      const v = this.u32();
      out[i] = v;
      out[i + 1] = v >>> 8;
      out[i + 2] = v >>> 16;
      out[i + 3] = v >>> 24;
    }
    for (; i < out.length; i++) out[i] = this.u32();
  }
}
