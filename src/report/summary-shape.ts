// `edgesim report` renders a summary saved earlier with `replay --format json`: a file that may come
// from another version, be cut short, or be some other JSON altogether. Before rendering, the parts
// the page reads are checked against the shape below (data, not code), and the first mismatch is
// named by its path: `series.counts.pass[3]: must be a number (got string)`.
import { COMPONENT_NAMES } from '../protection-components.js';
import { dottedPath, jsonType, type JsonPath } from '../config/schema.js';
import type { ReportData } from './report-data.js';

/**
 * A leaf type, an object of fields (a key ending in `?` may be absent), an array of one shape, or a
 * record: `'*'` is the shape of every key not named beside it.
 */
type Shape = Leaf | { readonly [key: string]: Shape } | readonly [Shape] | { readonly '*': Shape };
type Leaf = 'number' | 'string' | 'boolean' | 'number|null' | 'string|null' | 'object|null' | 'any';

const TOP: Shape = { exact: 'boolean', entries: [{ address: 'string', packets: 'number', error: 'number' }] };
const SCOPE: Shape = {
  scope: 'string',
  name: 'string',
  baselineSource: 'string',
  rateThresholdPps: 'number|null',
  burstThresholdPps: 'number|null',
  peakRatePps: 'number',
  peakBurstPps: 'number',
  mitigations: [{ start: 'number', end: 'number|null' }],
  timeline: [
    { time: 'number', ratePps: 'number', burstPps: 'number', rateThresholdPps: 'number|null', burstThresholdPps: 'number|null', mitigating: 'boolean' },
  ],
  'warning?': 'string|null',
};
const COMPONENT: Shape = { dropped: { '*': 'number' }, scopes: [SCOPE] };
/** one `shape` for each protection component, under its name */
const eachComponent = (shape: Shape): Record<string, Shape> => Object.fromEntries(COMPONENT_NAMES.map((name) => [name, shape]));

export const SUMMARY_SHAPE: Shape = {
  capture: {
    file: 'string',
    format: 'string',
    'compressed?': 'boolean',
    warnings: ['string'],
    'files?': [{ file: 'string', format: 'string', packets: 'number', passed: 'number', dropped: 'number' }],
  },
  'configuration?': 'string|null',
  packets: 'number',
  passed: 'number',
  dropped: 'number',
  droppedByStage: { ...eachComponent('number'), firewall: 'number', '*': 'number' },
  monitorFlagged: { '*': 'number' },
  firstTime: 'number|null',
  lastTime: 'number|null',
  rules: [{ ref: 'string', ruleset: 'string', action: 'string', enabled: 'boolean', description: 'string', expression: 'string', hits: 'number', decided: 'number' }],
  neverHit: ['string'],
  notes: [{ note: 'string', packets: 'number', firstFrame: 'number' }],
  nonIpPackets: 'number',
  atp: 'object|null',
  labels: 'object|null',
  series: {
    start: 'number|null',
    bucketSeconds: 'number',
    counts: { pass: ['number'], firewall: ['number'], ...eachComponent(['number']) },
  },
  drops: {
    byRule: [{ rule: 'string', packets: 'number' }],
    byReason: [{ stage: 'string', reason: 'string', packets: 'number' }],
    topSources: TOP,
    topDestinations: TOP,
  },
  'lint?': [{ rule: 'string|null', kind: 'string', message: 'string' }],
  'warnings?': ['string'],
};

const ATP_SHAPE: Shape = {
  status: 'boolean',
  captureStart: 'number|null',
  components: eachComponent(COMPONENT),
};
const LABELS_SHAPE: Shape = {
  attackPackets: 'number',
  attackDropped: 'number',
  legitPackets: 'number',
  legitDropped: 'number',
  legitFlows: 'number',
  legitFlowsDropped: 'number',
};

/** The first place where `value` does not fit `shape`, as `path: problem`, or null when it fits. */
export function shapeProblem(value: unknown, shape: Shape, path: JsonPath = []): string | null {
  if (typeof shape === 'string') return leafProblem(value, shape, path);
  const type = jsonType(value);
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${dottedPath(path)}: must be an array (got ${type})`;
    for (let i = 0; i < value.length; i++) {
      const p = shapeProblem(value[i], shape[0], [...path, i]);
      if (p !== null) return p;
    }
    return null;
  }
  if (type !== 'object') return `${dottedPath(path)}: must be an object (got ${type})`;
  const object = value as Record<string, unknown>;
  const fields = shape as Record<string, Shape>;
  const named = new Set<string>();
  for (const [spec, sub] of Object.entries(fields)) {
    if (spec === '*') continue;
    const optional = spec.endsWith('?');
    const key = optional ? spec.slice(0, -1) : spec;
    named.add(key);
    if (!Object.hasOwn(object, key)) {
      if (optional) continue;
      return `${dottedPath([...path, key])}: is missing`;
    }
    const p = shapeProblem(object[key], sub, [...path, key]);
    if (p !== null) return p;
  }
  if ('*' in fields) {
    for (const [k, v] of Object.entries(object)) {
      if (named.has(k)) continue;
      const p = shapeProblem(v, fields['*'], [...path, k]);
      if (p !== null) return p;
    }
  }
  return null;
}

function leafProblem(value: unknown, leaf: Leaf, path: JsonPath): string | null {
  if (leaf === 'any') return null;
  const type = jsonType(value) === 'integer' ? 'number' : jsonType(value);
  if (leaf.split('|').includes(type)) return null;
  const wanted = leaf.replace('|null', ' or null').replace(/^(object|array)/, 'an $1').replace(/^(number|string|boolean)/, 'a $1');
  return `${dottedPath(path)}: must be ${wanted} (got ${jsonType(value)})`;
}

/** Checks a parsed summary file; returns it typed, or the first problem found. */
export function checkSummary(value: unknown): { data: ReportData } | { problem: string } {
  const problem =
    shapeProblem(value, SUMMARY_SHAPE) ??
    nested(value, 'atp', ATP_SHAPE) ??
    nested(value, 'labels', LABELS_SHAPE) ??
    seriesProblem(value as ReportData);
  return problem === null ? { data: value as ReportData } : { problem };
}

function nested(value: unknown, key: string, shape: Shape): string | null {
  const v = (value as Record<string, unknown>)[key];
  return v === null ? null : shapeProblem(v, shape, [key]);
}

function seriesProblem(data: ReportData): string | null {
  const { counts, bucketSeconds } = data.series;
  if (!(bucketSeconds > 0)) return 'series.bucketSeconds: must be a positive number';
  const length = counts.pass.length;
  for (const [name, column] of Object.entries(counts)) {
    if (column.length !== length) return `series.counts.${name}: has ${column.length} buckets, series.counts.pass has ${length}`;
  }
  return null;
}
