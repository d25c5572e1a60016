// Every number of the ATP model in one object, so a user can see and override each assumption
// (README.md in this folder explains what each one means and why it has its default). The vendor
// documents the shape of the behaviour (thresholds from sensitivities, challenges, connection
// states) but not its numbers; the defaults here are the simulator's inferred model.
import { ConfigItemError } from '../errors.js';
import { STAGES, type AtpStage } from './vocabulary.js';

export type Sensitivity = 'low' | 'medium' | 'high';

/** Rate settings of one component (SYN flood or out-of-state). */
export interface RateOptions {
  /** normal packets per second of this component's traffic per scope; null: learn it in the learning window */
  baselinePps: number | null;
  /** the sustained-rate threshold is never below this (pps), so small captures are not mitigated by noise */
  minRatePps: number;
  /** the burst threshold is never below this (pps) */
  minBurstPps: number;
}

/**
 * The simulator's model parameters; see src/atp/README.md. Override any part with fromSnapshot(…, options).
 * Each component (src/protection-components.ts) has its RateOptions under its name.
 */
export type AtpOptions = ModelOptions & Record<AtpStage, RateOptions>;

/** The parameters every component shares. */
export interface ModelOptions {
  /** rate threshold = baseline × rateFactor[rate_sensitivity] */
  rateFactor: Record<Sensitivity, number>;
  /** burst threshold = rate threshold × burstFactor[burst_sensitivity] */
  burstFactor: Record<Sensitivity, number>;
  /** the sustained rate is the packet count over this sliding window (seconds) */
  rateWindowSeconds: number;
  /** the burst rate is the packet count over this shorter window (seconds); also the meters' tick */
  burstWindowSeconds: number;
  /** from the first packet: baselines are learned and mid-connection packets are adopted, not judged */
  learningSeconds: number;
  /** during the learning window, a packet of an unknown connection starts tracking it as Open (else it is only undecided) */
  adoptMidConnection: boolean;
  hysteresis: {
    /** mitigation stops once both rates are below threshold × offRatio … */
    offRatio: number;
    /** … and it has been on at least this long (seconds) */
    minActiveSeconds: number;
  };
  challenge: {
    /** a challenged client passes if it sends the handshake ACK within this many seconds */
    answerWindowSeconds: number;
  };
  retransmit: {
    /** a retransmission of the dropped SYN passes if it comes this many seconds or more after it … */
    minGapSeconds: number;
    /** … and at most this many */
    maxGapSeconds: number;
    /** a capture cannot hold the retransmission a dropped SYN would have caused: accept the client's handshake ACK as its proof */
    acceptHandshakeAck: boolean;
  };
  /** idle timeouts of connection states (seconds) */
  timeouts: {
    newSeconds: number;
    openSeconds: number;
    closingSeconds: number;
    /** how long a Closed connection is remembered (late packets: ALREADY_CLOSED, not NOT_FOUND) */
    closedSeconds: number;
  };
  /** a sequence number further than this (bytes, either way) from the expected one is OUT_OF_SEQUENCE */
  sequenceTolerance: number;
  /** also track the protected side's packets (source in a protected prefix); default: ingress only */
  bidirectional: boolean;
  /** connection-table capacity; when full, new connections are not tracked (and counted in the report) */
  maxFlows: number;
  /** width of a timeline point in the report (seconds) */
  timelineSeconds: number;
}

/** Any part of AtpOptions; nested objects may be given in part too. */
export type AtpOptionsInput = { [K in keyof AtpOptions]?: AtpOptions[K] extends object ? Partial<AtpOptions[K]> : AtpOptions[K] };

/** The documented defaults (src/atp/README.md). */
export const DEFAULT_ATP_OPTIONS: AtpOptions = deepFreeze({
  rateFactor: { high: 1.5, medium: 2, low: 4 },
  burstFactor: { high: 2, medium: 4, low: 8 },
  ...(Object.fromEntries(STAGES.map((c) => [c, { baselinePps: null, minRatePps: 100, minBurstPps: 500 }])) as Record<AtpStage, RateOptions>),
  rateWindowSeconds: 1,
  burstWindowSeconds: 0.1,
  learningSeconds: 10,
  adoptMidConnection: true,
  hysteresis: { offRatio: 0.5, minActiveSeconds: 5 },
  challenge: { answerWindowSeconds: 3 },
  retransmit: { minGapSeconds: 0.5, maxGapSeconds: 10, acceptHandshakeAck: true },
  timeouts: { newSeconds: 30, openSeconds: 600, closingSeconds: 30, closedSeconds: 10 },
  sequenceTolerance: 64 * 1024 * 1024,
  bidirectional: false,
  maxFlows: 500_000,
  timelineSeconds: 1,
});

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}

type Check = [path: string, get: (o: AtpOptions) => unknown, rule: 'positive' | 'nonNegative' | 'ratio' | 'boolean' | 'baseline' | 'count'];

const SENSITIVITIES: Sensitivity[] = ['high', 'medium', 'low'];

const CHECKS: Check[] = [
  ...SENSITIVITIES.map((s): Check => [`rateFactor.${s}`, (o) => o.rateFactor[s], 'positive']),
  ...SENSITIVITIES.map((s): Check => [`burstFactor.${s}`, (o) => o.burstFactor[s], 'positive']),
  ...STAGES.flatMap((c): Check[] => [
    [`${c}.baselinePps`, (o) => o[c].baselinePps, 'baseline'],
    [`${c}.minRatePps`, (o) => o[c].minRatePps, 'positive'],
    [`${c}.minBurstPps`, (o) => o[c].minBurstPps, 'positive'],
  ]),
  ['rateWindowSeconds', (o) => o.rateWindowSeconds, 'positive'],
  ['burstWindowSeconds', (o) => o.burstWindowSeconds, 'positive'],
  ['learningSeconds', (o) => o.learningSeconds, 'nonNegative'],
  ['adoptMidConnection', (o) => o.adoptMidConnection, 'boolean'],
  ['hysteresis.offRatio', (o) => o.hysteresis.offRatio, 'ratio'],
  ['hysteresis.minActiveSeconds', (o) => o.hysteresis.minActiveSeconds, 'nonNegative'],
  ['challenge.answerWindowSeconds', (o) => o.challenge.answerWindowSeconds, 'positive'],
  ['retransmit.minGapSeconds', (o) => o.retransmit.minGapSeconds, 'nonNegative'],
  ['retransmit.maxGapSeconds', (o) => o.retransmit.maxGapSeconds, 'positive'],
  ['retransmit.acceptHandshakeAck', (o) => o.retransmit.acceptHandshakeAck, 'boolean'],
  ['timeouts.newSeconds', (o) => o.timeouts.newSeconds, 'positive'],
  ['timeouts.openSeconds', (o) => o.timeouts.openSeconds, 'positive'],
  ['timeouts.closingSeconds', (o) => o.timeouts.closingSeconds, 'positive'],
  ['timeouts.closedSeconds', (o) => o.timeouts.closedSeconds, 'positive'],
  ['sequenceTolerance', (o) => o.sequenceTolerance, 'count'],
  ['bidirectional', (o) => o.bidirectional, 'boolean'],
  ['maxFlows', (o) => o.maxFlows, 'count'],
  ['timelineSeconds', (o) => o.timelineSeconds, 'positive'],
];

const RULES: Record<Check[2], [test: (v: unknown) => boolean, want: string]> = {
  positive: [(v) => typeof v === 'number' && Number.isFinite(v) && v > 0, 'a number above 0'],
  nonNegative: [(v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a number, 0 or more'],
  ratio: [(v) => typeof v === 'number' && v > 0 && v <= 1, 'a number above 0 and at most 1'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  baseline: [(v) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0), 'null (learn it) or packets per second, 0 or more'],
  count: [(v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) < 2 ** 30, 'a whole number from 1 to 2^30 - 1'],
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const path = at === '' ? key : `${at}.${key}`;
    if (!(key in base)) throw new ConfigItemError(`options.${path}`, 'unknown option');
    const current = base[key];
    if (isPlainObject(current)) {
      if (!isPlainObject(value)) throw new ConfigItemError(`options.${path}`, 'expected an object');
      out[key] = merge(current, value, path);
    } else out[key] = value;
  }
  return out;
}

/**
 * The defaults overridden by `input` (an object, e.g. parsed from an --atp-options file). Throws a
 * ConfigItemError whose path starts with `options.` for an unknown or out-of-range option, so an
 * options error is never mistaken for a snapshot item (those paths never start with `options.`).
 */
export function parseAtpOptions(input: AtpOptionsInput = {}): AtpOptions {
  if (!isPlainObject(input)) throw new ConfigItemError('options', 'expected an object of ATP options');
  const options = merge(DEFAULT_ATP_OPTIONS as unknown as Record<string, unknown>, input, '') as unknown as AtpOptions;
  for (const [path, get, rule] of CHECKS) {
    const [test, want] = RULES[rule];
    const value = get(options);
    if (!test(value)) throw new ConfigItemError(`options.${path}`, `expected ${want}, got ${JSON.stringify(value)}`);
  }
  if (options.burstWindowSeconds > options.rateWindowSeconds) {
    throw new ConfigItemError('options.burstWindowSeconds', `must not exceed rateWindowSeconds (${options.rateWindowSeconds})`);
  }
  if (options.retransmit.minGapSeconds > options.retransmit.maxGapSeconds) {
    throw new ConfigItemError('options.retransmit.minGapSeconds', `must not exceed retransmit.maxGapSeconds (${options.retransmit.maxGapSeconds})`);
  }
  return options;
}
