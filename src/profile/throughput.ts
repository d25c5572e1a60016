// Throughput of repeated passes over the same packets: each sample timed with process.hrtime.bigint()
// around whole passes (one clock read per sample, nothing per packet), the figure the median of the
// samples with their spread (the slowest and fastest sample). A small capture is passed over several
// times per sample (at least MIN_PACKETS packets a sample), so that a sample is long against the
// clock's resolution and V8's tiering; untimed warm-up passes, as many as a sample's, run first.
//
// A pass that needs a state of its own (a fresh protection state, say) gets it from `prepare`, made
// before the clock starts; the states of a sample are all alive at once. Such a state is sized by the
// configuration (a flow table, compiled filters: hundreds of KB) and costs as much to make, so a
// sample holds at most MAX_PREPARED_PASSES of them whatever the capture's size: memory and set-up
// time are bounded by the configuration, never by the inverse of the packet count (a 1-packet
// capture would otherwise prepare 200,000 states per sample). A sample of such passes over a tiny
// capture is shorter, still long against the clock (64 passes of a 1-packet capture: about 2 ms).

export interface Throughput {
  packets: number;
  /** timed samples */
  runs: number;
  /** passes over the packets per sample */
  passes_per_run: number;
  /** per-pass wall time in nanoseconds: median, fastest, slowest sample */
  ns_median: number;
  ns_min: number;
  ns_max: number;
  packets_per_second: number;
  ns_per_packet: number;
  /** packets/s of the slowest and the fastest sample */
  packets_per_second_min: number;
  packets_per_second_max: number;
}

const MIN_PACKETS = 200_000;
/** passes per sample when each pass needs a prepared state (all of a sample's states are alive at once) */
export const MAX_PREPARED_PASSES = 64;

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** How many passes over `packets` packets make one sample. */
export function passesPerSample(packets: number): number {
  return Math.max(1, Math.ceil(MIN_PACKETS / Math.max(1, packets)));
}

/** Times `runs` samples of `pass` over `packets` packets, each pass on a state `prepare` made for it (untimed). */
export function measure<S>(packets: number, runs: number, prepare: () => S, pass: (state: S) => void): Throughput {
  return timeSamples(packets, runs, Math.min(passesPerSample(packets), MAX_PREPARED_PASSES), prepare, pass);
}

/** Times `runs` samples of `pass`, which needs no state of its own, over `packets` packets. */
export function measurePasses(packets: number, runs: number, pass: () => void): Throughput {
  return timeSamples(packets, runs, passesPerSample(packets), () => undefined, pass);
}

function timeSamples<S>(packets: number, runs: number, k: number, prepare: () => S, pass: (state: S) => void): Throughput {
  for (let i = 0; i < k; i++) pass(prepare());
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const states = Array.from({ length: k }, prepare);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) pass(states[i]!);
    times.push(Number(process.hrtime.bigint() - t0) / k);
  }
  const ns = median(times);
  const min = Math.min(...times);
  const max = Math.max(...times);
  const rate = (t: number) => (t === 0 ? 0 : (packets * 1e9) / t);
  return {
    packets,
    runs,
    passes_per_run: k,
    ns_median: ns,
    ns_min: min,
    ns_max: max,
    packets_per_second: rate(ns),
    ns_per_packet: packets === 0 ? 0 : ns / packets,
    packets_per_second_min: rate(max),
    packets_per_second_max: rate(min),
  };
}
