// Synthetic traffic: deterministic captures (pcap + label sidecar) from built-in scenarios or
// JSON flow specs. See generate.ts for the entry point and spec.ts for the spec's keys.
export { generateToFile, resolveSpec } from './capture-file.js';
export type { GenerateOptions, GenerateResult } from './capture-file.js';
export { generate } from './frame-stream.js';
export type { FrameConsumer, GenerateSummary } from './frame-stream.js';
export { LabelsError, labelsPathFor, readLabels } from './labels.js';
export type { Labels } from './labels.js';
export { SCENARIOS } from './scenarios.js';
export { KINDS, SpecError, parseSpec, specToJson } from './spec.js';
export type { FlowSpec, PartKind, PartSpec, TrafficLabel } from './spec.js';
export { COUNTRIES, COUNTRY_PREFIXES } from './countries.js';
