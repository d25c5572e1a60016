// Rules-as-code YAML in the octorules format: an account file whose `network_firewall_rules:` is the
// magic_transit entry point's rules (API rule objects without read-only fields) and whose `lists:`
// are the account's lists. `skip` means what it means in the API. The other network phases
// octorules knows are named as not simulated. Lines come from the YAML parser's own ranges.
import { LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { UserError } from '../../errors.js';
import { SNAPSHOT_SCHEMA } from '../resources.js';
import { isObject, rulesetOrigin, type ConfigurationDocument } from './document.js';

const RULES_KEY = 'network_firewall_rules';
const NOT_SIMULATED = ['network_firewall_managed', 'network_firewall_ratelimit', 'network_firewall_ids', 'network_ddos_rules'];
/** octorules' own per-rule settings, not part of the API's rule */
const OCTORULES_KEY = 'octorules';

/** Whether a parsed YAML value is an octorules account file (its rules, or only its lists). */
export function isOctorulesFile(value: unknown): boolean {
  return isObject(value) && (RULES_KEY in value || 'lists' in value || NOT_SIMULATED.some((k) => k in value));
}

function apiRule(rule: unknown): unknown {
  if (!isObject(rule)) return rule;
  const { [OCTORULES_KEY]: _settings, ...api } = rule;
  return api;
}

function apiList(list: unknown): unknown {
  if (!isObject(list) || !Array.isArray(list.items)) return list;
  return { ...list, items: list.items.map((item: unknown) => (typeof item === 'string' ? { ip: item } : item)) };
}

/** A YAML document with its lines; invalid YAML is one error naming the line and the column (an octorules file, a suite's inline configuration). */
export function readYamlDocument(text: string, file: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const { line, col } = lines.linePos(e.pos[0]);
    throw new UserError(`invalid YAML at line ${line}, column ${col}: ${e.message.split('\n')[0]!}`, { source: file });
  }
  return { doc, lines };
}

export function readOctorulesDocument(text: string, file: string): ConfigurationDocument {
  const { doc, lines } = readYamlDocument(text, file);
  const value: unknown = doc.toJS();
  if (!isObject(value) || !isOctorulesFile(value)) throw new UserError('not an octorules account file (no network_firewall_rules: or lists:)', { source: file });
  const snapshotKey = Object.keys(value).find((k) => k !== 'lists' && k in SNAPSHOT_SCHEMA.properties!);
  if (snapshotKey !== undefined) throw new UserError(`${snapshotKey}: not an octorules key (an edgesim snapshot's): read the file as a snapshot`, { source: file });
  const document: Record<string, unknown> = {};
  if (RULES_KEY in value) {
    const rules = value[RULES_KEY];
    document.rulesets = [{ name: RULES_KEY, kind: 'root', phase: 'magic_transit', rules: Array.isArray(rules) ? rules.map(apiRule) : rules }];
  }
  const notes = NOT_SIMULATED.filter((k) => Array.isArray(value[k]) && (value[k] as unknown[]).length > 0).map((k) => `${k}: this phase is not simulated`);
  // the network firewall matches IP lists; octorules also manages asn, hostname and redirect lists
  const lists: unknown[] = Array.isArray(value.lists) ? value.lists : [];
  const ipList = (l: unknown): boolean => !isObject(l) || typeof l.kind !== 'string' || l.kind === 'ip';
  const kept = lists.flatMap((l, i) => (ipList(l) ? [i] : []));
  if (kept.length < lists.length) {
    const other = lists.filter((l) => !ipList(l)) as Array<Record<string, unknown>>;
    notes.push(`lists ${other.map((l) => `${String(l.name)} (${String(l.kind)})`).join(', ')}: not IP lists, left out (the network firewall matches IP lists)`);
  }
  if ('lists' in value) document.lists = Array.isArray(value.lists) ? kept.map((i) => apiList(lists[i])) : value.lists;
  if (!(RULES_KEY in value)) notes.push(`no ${RULES_KEY}: in this file (the network firewall's rules); it holds ${Object.keys(value).join(', ')}`);
  return {
    document,
    origin: (path) => (path[0] === 'lists' && typeof path[1] === 'number' ? ['lists', kept[path[1]] ?? path[1], ...path.slice(2)] : rulesetOrigin(() => [RULES_KEY], (_i, j) => [RULES_KEY, j])(path)),
    locate: (_ruleset, rule) => {
      const node = doc.getIn(rule === undefined ? [RULES_KEY] : [RULES_KEY, rule], true) as Node | undefined;
      if (node?.range == null) return undefined;
      const { line, col } = lines.linePos(node.range[0]);
      return { file, line, column: col };
    },
    notes,
  };
}
