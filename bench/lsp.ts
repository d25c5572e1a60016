// The language server's latency, as an editor meets it: the built `edgesim lsp --stdio` in its own
// process, driven over JSON-RPC (the tests' client). On the analysis bench's 200-rule snapshot (with
// its 10,000-entry list) and on 1,000 realistic rules: one edit of one rule's expression, timed from
// the change sent to the engine's diagnostics published for that version (the typing path) and to
// the diagnostics being final (lint's findings too, from the analysis thread); and a completion
// request answered (fields, and ip.proto's values). The server's pause before checking (debounceMs,
// 200 by default) is set to 0 here: the figures are the work, not the wait. Medians of the runs.
// Round trips are wall time, which a loaded machine stretches; the server's own work for an edit and
// lint's are also measured in this process as CPU time.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lintText } from '../src/lsp/check/configuration.js';
import { documentProblems, linted } from '../src/lsp/check/diagnostics.js';
import { readDocument } from '../src/lsp/document.js';
import { patchDocument } from '../src/lsp/patch.js';
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

/** The CPU time (user + system, ms) a process has used so far, all its threads (Linux's /proc); NaN elsewhere. */
function processCpuMs(pid: number): number {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return Number.NaN;
  // the fields after the command's name (in parentheses): utime and stime are the 12th and 13th
  const fields = readFileSync(file, 'utf8').replace(/^.*\) /s, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Edits of one rule's expression back and forth, each timed to its first and its final diagnostics;
 * and the server process's CPU time per edit, lint's thread included (what the round trip costs the
 * machine, against which the wait for a core on a loaded machine shows).
 */
async function edits(client: LspClient, uri: string, text: string, target: string, runs: number): Promise<{ typing: number[]; settled: number[]; serverCpu: number }> {
  const cpu0 = processCpuMs(client.child.pid!);
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
  return { typing, settled, serverCpu: (processCpuMs(client.child.pid!) - cpu0) / runs };
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

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The server's own work for one edit, in this process, as CPU time (the machine's load moves the
 * round trip, not this): the document's next version (patched), its problems with lint's last
 * findings kept, and their positions; and lint of the whole text, as the analysis thread runs it.
 */
async function inProcess(text: string, runs: number): Promise<{ typing: number; lint: number }> {
  const from = text.indexOf('udp.dstport == 53', text.indexOf('"ref": "typing"'));
  let model = readDocument('file:///bench.json', 'json', 1, text);
  const outcome = await lintText({ text, file: '/bench.json', kind: 'snapshot' }, { maxRules: 200 });
  const lint = linted(model, outcome);
  const typing: number[] = [];
  for (let i = 0; i < runs; i++) {
    const next = `${text.slice(0, from)}${i % 2 === 0 ? 'udp.dstport == 5' : 'udp.dstport == 53'}${text.slice(from + 17)}`;
    const t0 = cpuMs();
    model = patchDocument(model, next, i + 2) ?? readDocument('file:///bench.json', 'json', i + 2, next);
    const doc = TextDocument.create('file:///bench.json', 'json', i + 2, next);
    for (const p of documentProblems(model, lint, true)) {
      doc.positionAt(p.start);
      doc.positionAt(p.end);
    }
    typing.push(cpuMs() - t0);
  }
  const lints: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = cpuMs();
    await lintText({ text, file: '/bench.json', kind: 'snapshot' }, { maxRules: 200 });
    lints.push(cpuMs() - t0);
  }
  return { typing: median(typing), lint: median(lints) };
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
    rows.push({ suite: 'lsp', name: `one edit, ${rules} rules: the server process's CPU time`, value: e200.serverCpu, unit: 'ms', note: `all its threads, lint included, mean of ${EDITS} edits (/proc, 10 ms ticks)` });
    const cpu200 = await inProcess(text, 30);
    rows.push({ suite: 'lsp', name: `one edit, ${rules} rules: the server's work for it`, value: cpu200.typing, unit: 'ms', note: 'CPU time in process: next version, problems, positions; median of 30; target ≤ 50 ms' });
    rows.push({ suite: 'lsp', name: `lint of ${rules} rules, as the analysis thread runs it`, value: cpu200.lint, unit: 'ms', note: 'CPU time in process, median of 5; target ≤ 1,000 ms' });
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
    const cpu1000 = await inProcess(bigText, 10);
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: the server's work for it`, value: cpu1000.typing, unit: 'ms', note: 'CPU time in process, median of 10; target ≤ 100 ms' });
    rows.push({ suite: 'lsp', name: `lint of ${big.rulesets[0]!.rules.length} rules, as the analysis thread runs it`, value: cpu1000.lint, unit: 'ms', note: 'CPU time in process, median of 5; no target: off the typing path' });
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: the engine's diagnostics`, value: median(e1000.typing), unit: 'ms', note: 'median of 5; target ≤ 100 ms (lint runs apart)' });
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: lint's findings too`, value: median(e1000.settled), unit: 'ms', note: 'median of 5; no target: off the typing path' });
    rows.push({ suite: 'lsp', name: `one edit, ${big.rulesets[0]!.rules.length} rules: the server process's CPU time`, value: e1000.serverCpu, unit: 'ms', note: 'all its threads, lint included, mean of 5 edits (/proc, 10 ms ticks)' });
    const bigFields = await completions(client, bigUri, bigText, 'and udp.dstport', 11, COMPLETIONS);
    rows.push({ suite: 'lsp', name: 'completion: fields, 1,000-rule file', value: median(bigFields), unit: 'ms', note: `round trip, median of ${COMPLETIONS}; target ≤ 50 ms` });
  } finally {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
