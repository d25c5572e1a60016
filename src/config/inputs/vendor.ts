// The vendor API's own JSON, as curl saves it: a ruleset GET response (the envelope or its
// `result`), the rulesets list, or an array of either. Rulesets of the network-firewall phase are
// kept as the API wrote them (server fields and vendor spellings included: the snapshot schema
// accepts both); other magic_transit_* phases are named as not simulated, other phases ignored.
import { UserError } from '../../errors.js';
import { jsonPathLocator } from '../location.js';
import type { JsonPath } from '../schema.js';
import { isObject, rulesetOrigin, type ConfigurationDocument } from './document.js';
import { parseJsonFile } from './snapshot-file.js';

const FIREWALL_PHASES = new Set(['magic_transit', 'edge_transit']);
const OTHER_PHASE = /^magic_transit_/;

/** Every ruleset object of the document with its JSON path. */
function rulesetsIn(value: unknown, file: string, at: JsonPath = []): Array<[JsonPath, Record<string, unknown>]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => rulesetsIn(item, file, [...at, i]));
  if (!isObject(value)) throw new UserError(`${at.length === 0 ? 'the document' : `item ${at.join('.')}`}: expected a ruleset or an API response object`, { source: file });
  if (value.success === false) {
    const first = Array.isArray(value.errors) && isObject(value.errors[0]) ? `: ${String(value.errors[0].message)}` : '';
    throw new UserError(`an API error response, not a configuration${first}`, { source: file });
  }
  if ('result' in value) return rulesetsIn(value.result, file, [...at, 'result']);
  if (!('phase' in value)) throw new UserError(`${at.length === 0 ? 'the document' : `item ${at.join('.')}`}: not a ruleset (no phase) nor an API response (no result)`, { source: file });
  return [[at, value]];
}

export function readVendorDocument(text: string, file: string): ConfigurationDocument {
  const found = rulesetsIn(parseJsonFile(text, file), file);
  const notes = found.filter(([, r]) => OTHER_PHASE.test(String(r.phase))).map(([, r]) => `ruleset ${JSON.stringify(r.name)} of phase ${String(r.phase)} is not simulated`);
  const kept = found.filter(([, r]) => FIREWALL_PHASES.has(String(r.phase)));
  // the rulesets list (GET /accounts/ID/rulesets) answers without rules: read as is, the ruleset would decide nothing
  if (kept.length === 0) {
    const phases = [...new Set(found.map(([, r]) => String(r.phase)))];
    notes.push(`no network-firewall ruleset (phase magic_transit) in this file; it holds ${phases.length === 0 ? 'no ruleset' : `rulesets of phase ${phases.join(', ')}`}`);
  }
  notes.push(...kept.filter(([, r]) => !('rules' in r)).map(([, r]) => `ruleset ${JSON.stringify(r.name)} has no "rules": the rulesets list answers without them; save the ruleset's own GET (…/rulesets/ID or …/phases/magic_transit/entrypoint) to have its rules`));
  const pathOf = (i: number): JsonPath => kept[i]?.[0] ?? [];
  return {
    document: { rulesets: kept.map(([, r]) => r) },
    origin: rulesetOrigin(pathOf, (i, j) => [...pathOf(i), 'rules', j]),
    locate: jsonPathLocator(text, file, (i, j) => [...pathOf(i), ...(j === undefined ? [] : ['rules', j])]),
    notes,
  };
}
