// The language server's latency, as an editor meets it: the built `edgesim lsp --stdio` in its own
// process, driven over JSON-RPC (the tests' client). On the analysis bench's 200-rule snapshot (with
// its 10,000-entry list) and on 1,000 realistic rules: one edit of one rule's expression, timed from
// the change sent to the engine's diagnostics published for that version (the typing path) and to
// the diagnostics being final (lint's findings too, from the analysis thread); and a completion
// request answered (fields, and ip.proto's values). The server's pause before checking (debounceMs,
// 200 by default) is set to 0 here: the figures are the work, not the wait. Medians of the runs.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../test/helpers/lsp-client.js';
import { benchSnapshot } from './analysis.js';
import { PARTNER_LISTS, realisticRuleset } from './realistic-rulesets.js';
import type { BenchRow, BenchSuite } from './types.js';

const EDITS = 15;
const COMPLETIONS = 30;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

function position(text: string, offset: number): { line: number; character: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

/** Edits of one rule's expression back and forth, each timed to its first and its final diagnostics. */
async function edits(client: LspClient, uri: string, text: string, target: string, runs: number): Promise<{ typing: number[]; settled: number[] }> {
  const from = text.indexOf(target, text.indexOf('"ref": "typing"'));
  const alternatives = [`${target.slice(0, -1)} `, target];
  const typing: number[] = [];
  const settled: number[] = [];
  let current = target;
  for (let i = 0; i < runs; i++) {
    const next = alternatives[i % 2]!;
    const range = { start: position(text, from), end: position(text, from + current.length) };
    const version = client.version(uri) + 1;
    const first = client.published(uri, version);
    const t0 = performance.now();
    await client.change(uri, [{ range, text: next }]);
    await first;
    typing.push(performance.now() - t0);
    await client.settled(uri);
    settled.push(performance.now() - t0);
    text = text.slice(0, from) + next + text.slice(from + current.length);
    current = next;
  }
  return { typing, settled };
}

async function completions(client: LspClient, uri: string, text: string, marker: string, shift: number, runs: number): Promise<number[]> {
  const at = position(text, text.indexOf(marker, text.indexOf('"ref": "typing"')) + shift);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const items = await client.request<unknown[]>('textDocument/completion', { textDocument: { uri }, position: at });
    times.push(performance.now() - t0);
    if (items.length === 0) throw new Error(`no completion at ${marker}`);
  }
  return times;
}

export const suite: BenchSuite = async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-lsp-'));
  const client = await LspClient.start({ debounceMs: 0 });
  const rows: BenchRow[] = [];
  try {
    // 200 rules
    const snapshot = benchSnapshot();
    snapshot.rulesets![0]!.rules!.push({ ref: 'typing', action: 'block', expression: 'ip.proto == "udp" and udp.dstport == 53' });
    const text = `${JSON.stringify(snapshot, null, 2)}\n`;
    const file = path.join(dir, 'firewall.json');
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;
    await client.open(uri, text);
    await client.settled(uri);
    const rules = snapshot.rulesets![0]!.rules!.length;
    const e200 = await edits(client, uri, text, 'udp.dstport == 53', EDITS);
    rows.push({ suite: 'lsp', name: `one edit, ${rules} rules: the engine's diagnostics`, value: median(e200.typing), unit: 'ms', note: `from the change sent to diagnostics published for it, median of ${EDITS}; target ≤ 50 ms` });
    rows.push({ suite: 'lsp', name: `one edit, ${rules} rules: lint's findings too`, value: median(e200.settled), unit: 'ms', note: `to the final diagnostics (lint on the analysis thread); target ≤ 1,000 ms` });
    const fields = await completions(client, uri, text, 'and udp.dstport', 11, COMPLETIONS);
    rows.push({ suite: 'lsp', name: 'completion: fields', value: median(fields), unit: 'ms', note: `round trip, ${rules}-rule file, median of ${COMPLETIONS}; target ≤ 50 ms` });
    const values = await completions(client, uri, text, 'ip.proto == ', 12, COMPLETIONS);
    rows.push({ suite: 'lsp', name: 'completion: ip.proto values', value: median(values), unit: 'ms', note: `round trip, median of ${COMPLETIONS}; target ≤ 50 ms` });

    // 1,000 realistic rules
    const big = { lists: PARTNER_LISTS, rulesets: [{ name: 'fw', kind: 'root' as const, phase: 'magic_transit' as const, rules: realisticRuleset(985).map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) })) }] };
    big.rulesets[0]!.rules.push({ ref: 'typing', action: 'block', expression: 'ip.proto == "udp" and udp.dstport == 53' });
    const bigText = `${JSON.stringify(big, null, 2)}\n`;
    const bigFile = path.join(dir, 'big.json');
    writeFileSync(bigFile, bigText);
    const bigUri = pathToFileURL(bigFile).href;
    await client.open(bigUri, bigText);
    await client.settled(bigUri);
    const e1000 = await edits(client, bigUri, bigText, 'udp.dstport == 53', 5);
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: the engine's diagnostics`, value: median(e1000.typing), unit: 'ms', note: 'median of 5; target ≤ 100 ms (lint runs apart)' });
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: lint's findings too`, value: median(e1000.settled), unit: 'ms', note: 'median of 5; no target: off the typing path' });
    const bigFields = await completions(client, bigUri, bigText, 'and udp.dstport', 11, COMPLETIONS);
    rows.push({ suite: 'lsp', name: 'completion: fields, 1,000-rule file', value: median(bigFields), unit: 'ms', note: `round trip, median of ${COMPLETIONS}; target ≤ 50 ms` });
  } finally {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
