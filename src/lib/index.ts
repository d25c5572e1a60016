// edgesim as a library (`import { … } from 'edgesim'`): the public surface, small and stable. Every
// export is listed in docs/library.md (the README's "Use it as a library" links it); test/lib/exports.test.ts fails when one is
// added or removed without updating that list. Importing this loads no CLI code, prints nothing and
// opens nothing.
export { loadConfig, loadPlan, type Config, type Plan, type PlanOptions } from './config.js';
export { createSimulator, type Simulator, type SimulatorOptions } from './simulator.js';
export type { Packet } from './packet.js';
export type { VerdictRecord } from './verdict-record.js';
export type { CaptureInput } from './replay-records.js';
export type { PacketTrace, RuleStep, StageStep } from '../suite/trace.js';
export { validate, lint, diff, type Validation, type ValidateOptions, type ListOptions, type LintOptions, type LintFinding, type LintReport } from './rulesets.js';
export type { SourceLocation } from '../config/location.js';
export type { Finding, Comparison, Difference, Unsettled } from '../analysis/index.js';
export { synth, type SynthOptions, type SynthResult } from './synth.js';
export type { Snapshot } from '../config/snapshot.js';
export type { AtpOptionsInput } from '../atp/index.js';
export { UserError, UsageError, ConfigItemError, InputError, OutputError } from '../errors.js';
export { SnapshotError } from '../config/validate.js';
export { SuiteError } from '../suite/source.js';
export { CaptureError } from '../capture/capture-error.js';
export { SpecError } from '../capture/synth/index.js';
export { DataError } from '../data/errors.js';
