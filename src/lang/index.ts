// The Rules language: parse and type-check expressions against a scheme, with the reference
// engine's exact error messages; compile them to predicates over any packet type through a
// Binding; print, explain and inspect them. Other stages import only from here.
export { FilterError, legacyMessage } from './errors.js';
export { parse, parseWithTokens, type Limits } from './parse.js';
export { validateExpression, settingsFor, type ExpressionKind } from './validate.js';
export { FIREWALL_SCHEME, FILTER_SCHEME } from './schemes.js';
export { Scheme, type FieldDef, type FunctionDef, type FunctionParam, type ParamProblem, type SchemeSpec } from './scheme.js';
export { fieldsUsed, listsUsed } from './analysis.js';
export { complexity, DEFAULT_COMPLEXITY_LIMIT } from './complexity.js';
export { concat } from './functions/concat.js';
export { bitSlice } from './functions/bit-slice.js';
export type { Token } from './parser/context.js';
export type * from './ast.js';
export { ArrayOf, MapOf, display as displayType, type LangType, type Primitive } from './types.js';
export { compile, compileWithPlan, type PlanEntry } from './eval/compile.js';
export { interpret, type CompileOptions } from './interpret.js';
export { printExpr } from './print.js';
export type * from './binding.js';
export { explain } from './explain.js';
export { hintFor, hintOf, listWarnings, type Hint, type HintFix } from './hints.js';
export { MANAGED_LISTS } from './lists.js';
export { conditionsOf, ConditionProbe, type ConditionValue } from './conditions.js';
