// Advanced TCP Protection: SYN-flood and out-of-state TCP protection over a configuration snapshot.
// The model is documented in README.md beside this file.
export { AdvancedTcpProtection } from './advanced-tcp-protection.js';
export { AtpConfiguration } from './atp-configuration.js';
export { AtpDecision, type MonitorNote } from './decision.js';
export type { ModeSource } from './component-rules.js';
export { ProtectedSpace } from './protected-space.js';
export type { AtpExplanation, ComponentExplanation, ConnectionState } from './explanation.js';
export { DEFAULT_ATP_OPTIONS, parseAtpOptions, type AtpOptions, type AtpOptionsInput, type RateOptions, type Sensitivity } from './options.js';
export { Outcome, Outcomes, type AtpLabels, type LabelScore } from './outcomes.js';
export type { MitigationPeriod, TimelinePoint } from './rate-meter.js';
export { atpWarnings, scopeName, unprotectedWarning, type AtpComponentReport, type AtpReport, type AtpScopeReport } from './report.js';
export { STAGES, type AtpMode, type AtpStage, type MitigationReason } from './vocabulary.js';
