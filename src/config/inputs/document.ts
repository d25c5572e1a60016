// What each reader of src/config/inputs makes of one file: the configuration in the snapshot's shape,
// not yet validated (validateSnapshot checks every input the same way), with the way back from a
// snapshot path to the place in the user's file, for error lines and for reports that point at rules.
import type { RuleLocator } from '../location.js';
import type { JsonPath } from '../schema.js';

/** The formats a configuration file can be in; `--config-format` names one to skip detection. */
export const CONFIG_FORMATS = ['snapshot', 'terraform', 'vendor', 'octorules'] as const;
export type ConfigFormat = (typeof CONFIG_FORMATS)[number];

/** Which configuration of a Terraform plan to read: the planned one, or either side of its changes. */
export type PlanSide = 'planned' | 'before' | 'after';

/** One file read into the snapshot's shape. */
export interface ConfigurationDocument {
  /** snapshot keys and objects, to be validated */
  document: unknown;
  /** a snapshot path (`rulesets[0].rules[3].expression`) as the user's file spells it, for error lines */
  origin: (path: JsonPath) => JsonPath;
  locate: RuleLocator;
  /** things worth saying that are not errors (a phase not simulated, an alias read), each once */
  notes: string[];
  /** the refs the reader made (a Terraform rule's name where the user set no ref): reports name rules by them, a write to an API leaves them out */
  madeRefs?: readonly string[];
}

/**
 * A snapshot path whose ruleset part is rewritten by `ruleset(i)` and, under it, whose rule part is
 * rewritten by `rule(i, j)`; other paths as they are.
 */
export function rulesetOrigin(ruleset: (i: number) => JsonPath, rule: (i: number, j: number) => JsonPath): (path: JsonPath) => JsonPath {
  return (path) => {
    if (path[0] !== 'rulesets' || typeof path[1] !== 'number') return path;
    if (path[2] === 'rules' && typeof path[3] === 'number') return [...rule(path[1], path[3]), ...path.slice(4)];
    return [...ruleset(path[1]), ...path.slice(2)];
  };
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
