// Throughput of repeated passes over the same packets: each sample timed around whole passes (one
// clock read per sample, nothing per packet), the figure the median of the samples with their spread
// (the slowest and fastest sample), the samples kept so that a later run can be compared with them
// (compare.ts). The clock is the process's CPU time (user + system), not the wall clock: on a shared
// machine the wall-clock time of the same pass moves by 2x or more as other programs take the cores,
// while its CPU time moves by about 1%; a time the process spends waiting for a core is not its cost.
//
// A small capture is passed over several times per sample (at least MIN_PACKETS packets a sample),
// so that a sample is long against the clock's resolution (1 µs) and V8's tiering; untimed warm-up
// passes, as many as a sample's, run first. Samples are taken until there are at least `runs` and
// they add up to at least `minNs` of measuring time (at most MAX_SAMPLES), so a figure's spread is
// known from enough samples however fast one is.
//
// A pass that needs a state of its own (a fresh protection state, say) gets it from `prepare`, made
// before the clock starts; the states of a sample are all alive at once. Such a state may take
// memory and time to make (a fresh protection state takes a few KB: its connection table takes room
// as connections come), so a sample holds at most MAX_PREPARED_PASSES of them whatever the
// capture's size: memory and set-up time are bounded by the configuration, never by the inverse of
// the packet count (a 1-packet capture would otherwise prepare 200,000 states per sample). A sample of such passes over a tiny
// capture is shorter, still long against the clock (64 passes of a 1-packet capture: about 2 ms).

export interface Throughput {
  packets: number;
  /** timed samples */
  runs: number;
  /** passes over the packets per sample */
  passes_per_run: number;
  /** per-pass CPU time in nanoseconds: median, fastest, slowest sample */
  ns_median: number;
  ns_min: number;
  ns_max: number;
  /** per-pass CPU time of each sample, in the order taken */
  samples_ns: number[];
  packets_per_second: number;
  ns_per_packet: number;
  /** packets/s of the slowest and the fastest sample */
  packets_per_second_min: number;
  packets_per_second_max: number;
}

/** How long a figure is measured: at least `runs` samples and at least `minNs` nanoseconds of CPU time in all. */
export interface Sampling {
  runs: number;
  minNs: number;
}

const MIN_PACKETS = 200_000;
/** passes per sample when each pass needs a prepared state (all of a sample's states are alive at once) */
export const MAX_PREPARED_PASSES = 64;
/** no figure takes more samples than this (or than `runs`, when it asks for more) to reach its minimum time */
export const MAX_SAMPLES = 200;

/** The process's CPU time (user + system) in nanoseconds. */
export function cpuTimeNs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) * 1000;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The rate of a pass over `packets` packets that took `ns` nanoseconds (0 for no time). */
export function packetsPerSecond(packets: number, ns: number): number {
  return ns === 0 ? 0 : (packets * 1e9) / ns;
}

/** How many passes over `packets` packets make one sample. */
export function passesPerSample(packets: number): number {
  return Math.max(1, Math.ceil(MIN_PACKETS / Math.max(1, packets)));
}

/**
 * Per-pass times of samples of `passes` passes each, `timeSample` timing one sample (its CPU ns),
 * taken until `sampling` is met or MAX_SAMPLES are taken.
 */
export function takeSamples(sampling: Sampling, passes: number, timeSample: () => number): number[] {
  const perPass: number[] = [];
  const most = Math.max(sampling.runs, MAX_SAMPLES);
  let total = 0;
  while ((perPass.length < sampling.runs || total < sampling.minNs) && perPass.length < most) {
    const ns = timeSample();
    perPass.push(ns / passes);
    total += ns;
  }
  return perPass;
}

/** Times samples of `pass` over `packets` packets, each pass on a state `prepare` made for it (untimed). */
export function measure<S>(packets: number, sampling: Sampling, prepare: () => S, pass: (state: S) => void): Throughput {
  return timeSamples(packets, sampling, Math.min(passesPerSample(packets), MAX_PREPARED_PASSES), prepare, pass);
}

/** Times samples of `pass`, which needs no state of its own, over `packets` packets. */
export function measurePasses(packets: number, sampling: Sampling, pass: () => void): Throughput {
  return timeSamples(packets, sampling, passesPerSample(packets), () => undefined, pass);
}

function timeSamples<S>(packets: number, sampling: Sampling, k: number, prepare: () => S, pass: (state: S) => void): Throughput {
  for (let i = 0; i < k; i++) pass(prepare());
  const times = takeSamples(sampling, k, () => {
    const states = Array.from({ length: k }, prepare);
    const t0 = cpuTimeNs();
    for (let i = 0; i < k; i++) pass(states[i]!);
    return cpuTimeNs() - t0;
  });
  return throughputOf(packets, k, times);
}

/** One figure from the samples of several rounds of the same measurement (pooled). */
export function pooled(rounds: readonly Throughput[]): Throughput {
  return throughputOf(rounds[0]!.packets, rounds[0]!.passes_per_run, rounds.flatMap((t) => t.samples_ns));
}

function throughputOf(packets: number, k: number, times: number[]): Throughput {
  const ns = median(times);
  const min = Math.min(...times);
  const max = Math.max(...times);
  const rate = (t: number) => packetsPerSecond(packets, t);
  return {
    packets,
    runs: times.length,
    passes_per_run: k,
    ns_median: ns,
    ns_min: min,
    ns_max: max,
    samples_ns: times,
    packets_per_second: rate(ns),
    ns_per_packet: packets === 0 ? 0 : ns / packets,
    packets_per_second_min: rate(max),
    packets_per_second_max: rate(min),
  };
}
