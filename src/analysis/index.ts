// Static analysis of firewall configurations over the packet-field space: lint, explain, compare
// two snapshots, prove test-suite `space:` cases. Everything else in src/analysis is internal.
export { lint, lintModel, ruleStatus, ruleStatuses, type RuleStatus } from './lint.js';
export { FINDING_KINDS, severityOf, type Finding, type FindingKind, type Severity } from './findings.js';
export { explain, type Explanation, type Overlap } from './explain.js';
export { compareRulesets, type Comparison, type Difference, type Side, type Unsettled } from './compare.js';
export { type ReachedRule } from './reach.js';
export { proveSpace, spaceReach, SpaceProver, spaceExpression, spaceParts, type HeaderSpaceSpec, type SpaceSpec, type SpaceExpectation, type SpaceProof, type SpaceValue } from './prove.js';
export { deployFindings, withSubjects, type FindingSubject, type SubjectFinding } from './finding-subjects.js';
export { witnessRecord, type Witness } from './witness.js';
export { checkExpressions, type ModelOptions } from './model.js';
export { MAX_CASES_PER_RULE, pinFirewall, pinProtection, type Pinning, type PinnedRule, type PinnedSpace, type ProtectionWitness } from './pinning.js';
export { AnalysisBudget, TOTAL_WORK_LIMIT, WORK_LIMIT } from './budget.js';
