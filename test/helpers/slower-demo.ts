// A genuinely slower configuration for `bench --compare`/`--against` to catch: the demo snapshot with
// per-customer rules put before its own, none of which matches the demo capture, so every packet
// reaching the firewall evaluates them too. The verdicts stay the demo's; the firewall's work grows
// (8 such rules: 2.6x its time per packet, measured by `bench --against`).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_SNAPSHOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/demo-snapshot.json');

/** Writes the demo snapshot with `rules` extra rules at the head of its ruleset to `file`. */
export function writeSlowerDemo(file: string, rules = 8): string {
  const snapshot = JSON.parse(readFileSync(DEMO_SNAPSHOT, 'utf8'));
  const customers = Array.from({ length: rules }, (_, k) => ({
    ref: `customer-${k}`,
    action: 'block',
    expression: `ip.dst in { 198.51.${k}.0/24 } and tcp.dstport in { ${8000 + k} }`,
  }));
  snapshot.rulesets[0].rules.unshift(...customers);
  writeFileSync(file, JSON.stringify(snapshot));
  return file;
}
