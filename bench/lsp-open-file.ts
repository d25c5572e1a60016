// Writes the 1,000-rule configuration bench/lsp-open.mjs opens (realistic rules, bench/realistic-rulesets.ts):
//   npx tsx bench/lsp-open-file.ts FILE
import { writeFileSync } from 'node:fs';
import { PARTNER_LISTS, realisticRuleset } from './realistic-rulesets.js';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: npx tsx bench/lsp-open-file.ts FILE');
const rules = realisticRuleset(1000).map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' } } : {}) }));
writeFileSync(file, `${JSON.stringify({ lists: PARTNER_LISTS, rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules }] }, null, 2)}\n`);
