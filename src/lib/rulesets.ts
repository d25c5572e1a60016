// The library's checks of expressions and rulesets: the engine's verdict on an expression, lint's
// findings, and the static diff of two configurations, as the commands of the same names give them.
import { checkExpressions, compareRulesets, type Comparison, type Finding, type ModelOptions, type Severity } from '../analysis/index.js';
import { deployChecks } from '../config/deploy-checks.js';
import type { SourceLocation } from '../config/location.js';
import { createListRegistry } from '../data/lists.js';
import { attachSource } from '../errors.js';
import { validateExpression } from '../lang/index.js';
import { lintFindings } from '../review/lint-findings.js';
import { choiceArgument, configArgument, optionsArgument, stringArgument } from './arguments.js';
import type { Config } from './config.js';

/** The engine's verdict on an expression; `message` is its exact text when not valid. */
export type Validation = { valid: true } | { valid: false; message: string };

export interface ValidateOptions {
  /** firewall (rule expressions, the default) or filter (ATP filter expressions) */
  scheme?: 'firewall' | 'filter';
}

/** Validates one expression as the engine (and `edgesim validate`) does. */
export async function validate(expression: string, options: ValidateOptions = {}): Promise<Validation> {
  stringArgument('validate', 'the expression', expression);
  const scheme = choiceArgument('validate', 'scheme', optionsArgument('validate', options).scheme, ['firewall', 'filter']);
  const err = validateExpression(expression, scheme === 'filter' ? 'filter' : 'rule');
  return err === null ? { valid: true } : { valid: false, message: err.message };
}

export interface ListOptions {
  /** a folder of managed-list feeds replacing the bundled samples (--lists) */
  lists?: string;
}

/** The analysis's view of a configuration's lists; its expressions checked first, as `diff --static` checks them. */
function modelOptions(config: Config, options: ListOptions): ModelOptions {
  try {
    checkExpressions(config.snapshot);
    const registry = createListRegistry({ dir: options.lists, accountLists: config.snapshot.lists });
    return { lists: (name) => registry.resolve(name) };
  } catch (err) {
    throw attachSource(err, config.source);
  }
}

/** A finding of lint, with its severity and, for a configuration read from files, its place there. */
export type LintFinding = Finding & { severity: Severity; location?: SourceLocation };

export interface LintOptions extends ListOptions {
  /** rules per ruleset the account may hold (lint --max-rules; default 200) */
  maxRules?: number;
}

/** What lint() gives: `edgesim lint --json`'s object. */
export interface LintReport {
  findings: LintFinding[];
}

/**
 * `edgesim lint`'s findings for a configuration (unreachable and unmatchable rules, warnings,
 * deploy-time checks), as its --json gives them: `{ findings }` (each finding without a location
 * when the configuration is an object, which has no file to place it in).
 */
export async function lint(config: Config, options: LintOptions = {}): Promise<LintReport> {
  configArgument('lint', 'the configuration', config);
  options = optionsArgument('lint', options);
  const model = modelOptions(config, options);
  try {
    const deploy = deployChecks(config.snapshot, options.maxRules);
    const findings = lintFindings({ snapshot: config.snapshot, model, deploy, document: config.snapshot, file: config.source ?? '', locate: config.locate });
    return { findings: findings.map(({ finding, severity, location }) => ({ ...finding, severity, ...(config.source === undefined ? {} : { location }) })) };
  } catch (err) {
    throw attachSource(err, config.source);
  }
}

/** `edgesim diff --static`: the classes of packets two configurations decide differently, each with a witness packet. */
export async function diff(before: Config, after: Config, options: ListOptions = {}): Promise<Comparison> {
  configArgument('diff', 'before', before);
  configArgument('diff', 'after', after);
  options = optionsArgument('diff', options);
  return compareRulesets(before.snapshot, after.snapshot, { a: modelOptions(before, options), b: modelOptions(after, options) });
}
