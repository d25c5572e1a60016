// Scenario cases: a built-in synthetic scenario (`syn-flood`, ...) or a flow-spec file is generated
// into a labelled capture and replayed; the labels are the ground truth. `attack_dropped_min` is the
// share of attack packets the path dropped; `legit_flows_harmed_max` counts legitimate flows harmed
// anywhere on the path, scored as ATP scores its own drops (atp/outcomes.ts): a flow is harmed by a
// drop for any reason but a SYN challenge the client then passed, or by a challenge never passed;
// a firewall drop counts as harm.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Outcome, Outcomes } from '../../atp/outcomes.js';
import { Reason, REASONS } from '../../atp/vocabulary.js';
import { generateToFile, readLabels, resolveSpec, SCENARIOS, SpecError } from '../../capture/synth/index.js';
import { counted, groupDigits } from '../../numbers.js';
import type { PacketSink } from '../../sim/outputs/packet-sinks.js';
import { OpenCapture } from '../../sim/packet-loop.js';
import { replay } from '../../sim/replay.js';
import type { PacketVerdict } from '../../sim/verdict.js';
import type { Located } from '../source.js';
import type { CaseKind, CaseOutcome, RunContext } from '../suite.js';

export interface ScenarioCase {
  /** a scenario name or the flow-spec file's absolute path, checked at load */
  source: string;
  options: { packets?: number; seed?: number; duration?: number };
  attackDroppedMin: number | null;
  legitFlowsHarmedMax: number | null;
  legitDroppedMax: number | null;
}

/** Feeds every packet's outcome to ATP's scoring: ATP drops with their reason, firewall drops as harm. */
class PathOutcomes implements PacketSink {
  readonly outcomes = new Outcomes();

  packet(v: PacketVerdict): void {
    let code: number = Outcome.PASS;
    if (v.drop) code = Outcome.DROP + (v.reason === null ? Reason.UNEXPECTED : REASONS.indexOf(v.reason) + 1);
    this.outcomes.record(v.record.frame, code);
  }

  async close(): Promise<void> {}
}

function share(at: Located): number {
  const n = at.value;
  if (at.type !== 'number' || (n as number) < 0 || (n as number) > 1) at.fail(`expected a share from 0 to 1 (0.99 = 99%), got ${String(n)}`);
  return n as number;
}

function count(at: Located): number {
  const n = at.value;
  if (at.type !== 'number' || !Number.isInteger(n) || (n as number) < 0) at.fail(`expected a count (0 or more), got ${String(n)}`);
  return n as number;
}

function parseSource(value: Located, keys: Map<string, Located>, dir: string): Pick<ScenarioCase, 'source' | 'options'> {
  if (value.type !== 'string') value.fail(`expected a scenario name (${Object.keys(SCENARIOS).join(', ')}) or a flow-spec file (.json), got ${value.type}`);
  const name = value.value as string;
  const synth = keys.get('synth');
  const options: Record<string, number> = {};
  for (const [k, at] of synth?.checkKeys(['packets', 'seed', 'duration']) ?? []) {
    if (at.type !== 'number') at.fail(`expected a number, got ${at.type}`);
    options[k] = at.value as number;
  }
  const source = name.endsWith('.json') ? path.resolve(dir, name) : name;
  try {
    resolveSpec(source, options);
    return { source, options };
  } catch (err) {
    if (err instanceof SpecError) return (synth !== undefined && /^(packets|seed|duration)\b/.test(err.message) ? synth : value).fail(err.message);
    throw err;
  }
}

async function runScenario(c: ScenarioCase, ctx: RunContext): Promise<CaseOutcome> {
  const out: CaseOutcome = { failures: [], traces: [], warnings: [], notes: [] };
  const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-scenario-'));
  try {
    const capture = path.join(dir, 'scenario.pcap');
    await generateToFile(c.source, capture, c.options);
    const scoring = new PathOutcomes();
    const { report, warnings } = await replay(await OpenCapture.open(capture), ctx.paths.path, { sinks: () => (ctx.coverage === undefined ? [scoring] : [scoring, ctx.coverage.sink()]) });
    out.warnings.push(...warnings, ...report.capture.warnings);
    const labels = await readLabels(capture);
    if (labels === null || labels.frames !== report.packets) {
      out.warnings.push(`the labels cover ${counted(labels?.frames ?? 0, 'frame')} of ${groupDigits(report.packets)}`);
      if (labels === null) return out;
    }
    const s = scoring.outcomes.score(labels);
    const dropped = s.attackPackets === 0 ? 1 : s.attackDropped / s.attackPackets;
    if (s.attackPackets === 0 && c.attackDroppedMin !== null) out.warnings.push('the scenario has no attack packets');
    if (c.attackDroppedMin !== null && dropped < c.attackDroppedMin) {
      out.failures.push(`attack_dropped_min: expected at least ${c.attackDroppedMin}, got ${round(dropped)} (${s.attackDropped} of ${s.attackPackets} attack packets dropped)`);
    }
    if (c.legitFlowsHarmedMax !== null && s.legitFlowsHarmed > c.legitFlowsHarmedMax) {
      out.failures.push(`legit_flows_harmed_max: expected at most ${c.legitFlowsHarmedMax}, got ${s.legitFlowsHarmed} of ${s.legitFlows} legitimate flows harmed`);
    }
    if (c.legitDroppedMax !== null && s.legitDropped > c.legitDroppedMax) {
      out.failures.push(`legit_dropped_max: expected at most ${c.legitDroppedMax}, got ${s.legitDropped} of ${s.legitPackets} legitimate packets dropped`);
    }
    out.notes.push(`attack dropped ${round(dropped)} (${s.attackDropped}/${s.attackPackets}); legitimate flows harmed ${s.legitFlowsHarmed}/${s.legitFlows}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}

export const scenarioKind: CaseKind<ScenarioCase> = {
  key: 'scenario',
  keys: ['synth'],
  expectKeys: ['attack_dropped_min', 'legit_flows_harmed_max', 'legit_dropped_max'],
  parse(value, expect, keys, ctx) {
    const source = parseSource(value, keys, ctx.dir);
    if (path.isAbsolute(source.source)) ctx.files.reads.push({ what: `the flow spec of case ${JSON.stringify(ctx.caseName)}`, path: source.source, at: value });
    const get = <T>(k: string, f: (at: Located) => T): T | null => {
      const at = expect.get(k);
      return at === undefined ? null : f(at);
    };
    return { ...source, attackDroppedMin: get('attack_dropped_min', share), legitFlowsHarmedMax: get('legit_flows_harmed_max', count), legitDroppedMax: get('legit_dropped_max', count) };
  },
  run: runScenario,
};
