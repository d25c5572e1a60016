// Capture cases: a pcap or pcapng replayed through the suite's configuration, checked against
// `totals` (packets passed and dropped), `frames` (frame number -> verdict or expectation), `by_rule`
// (rule ref -> packets it decided) and `golden` (every frame's verdict in the replay's NDJSON
// format). `--update` rewrites golden files, and only those, from the current result (btest's -U).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PacketRecord } from '../../capture/record.js';
import { OutputError } from '../../errors.js';
import type { Firewall } from '../../firewall/firewall.js';
import { NdjsonSink, type PacketSink } from '../../sim/outputs/packet-sinks.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import type { AdvancedTcpProtection } from '../../atp/index.js';
import { buildPacketPath } from '../../sim/build.js';
import { OpenCapture } from '../../sim/packet-loop.js';
import { replay } from '../../sim/replay.js';
import type { PacketVerdict } from '../../sim/verdict.js';
import { existingFile, type Located } from '../source.js';
import type { CaseKind, CaseOutcome, RunContext } from '../suite.js';
import { tracePacket, verdictSummary, type PacketTrace } from '../trace.js';
import { traceFrame } from '../trace-frame.js';
import { compareVerdict, parseFrameExpectation, type KnownRefs, type VerdictExpectation } from '../verdict-expect.js';

export interface CaptureCase {
  capture: string;
  totals: { packets?: number; pass?: number; drop?: number };
  frames: Map<number, VerdictExpectation>;
  byRule: Map<string, number>;
  golden: string | null;
  /** how the suite names the golden file (relative), for messages */
  goldenName: string | null;
  suiteFile: string;
}


function count(at: Located): number {
  const n = at.value;
  if (at.type !== 'number' || !Number.isInteger(n) || (n as number) < 0) at.fail(`expected a number of packets (0 or more), got ${String(n)}`);
  return n as number;
}

function parseExpect(expect: Map<string, Located>, refs: KnownRefs, dir: string): Omit<CaptureCase, 'capture' | 'suiteFile'> {
  const totals: CaptureCase['totals'] = {};
  const t = expect.get('totals');
  if (t !== undefined) for (const [k, at] of t.checkKeys(['packets', 'pass', 'drop'])) totals[k as 'pass'] = count(at);
  const frames = new Map<number, VerdictExpectation>();
  for (const [k, at] of expect.get('frames')?.entries('a map of frame numbers to verdicts') ?? []) {
    if (!/^[1-9][0-9]*$/.test(k)) at.failKey('expected a frame number (1, 2, ...; frames are numbered as Wireshark numbers them)');
    frames.set(Number(k), parseFrameExpectation(at, refs));
  }
  const byRule = new Map<string, number>();
  for (const [ref, at] of expect.get('by_rule')?.checkKeys(refs.firewall, 'rule ref') ?? []) byRule.set(ref, count(at));
  const g = expect.get('golden');
  let golden: string | null = null;
  if (g !== undefined) {
    if (g.type !== 'string' || g.value === '') g.fail(`expected the path of a golden NDJSON file (a string), got ${g.type}`);
    golden = path.resolve(dir, g.value as string);
  }
  return { totals, frames, byRule, golden, goldenName: g === undefined ? null : (g.value as string) };
}

/** Checks the `frames` expectations as the replay goes; traces a frame that does not match. */
class FrameCheck implements PacketSink {
  readonly failures: string[] = [];
  readonly traces: PacketTrace[] = [];
  readonly seen = new Set<number>();

  constructor(
    private readonly frames: Map<number, VerdictExpectation>,
    private readonly firewall: Firewall,
    private readonly atp: AdvancedTcpProtection | null,
  ) {}

  packet(rec: PacketRecord, v: PacketVerdict): void {
    const want = this.frames.get(rec.frame);
    if (want === undefined) return;
    this.seen.add(rec.frame);
    const diffs = compareVerdict(want, verdictSummary(v, this.firewall));
    if (diffs.length === 0) return;
    const trace = tracePacket(rec, v, this.firewall, this.atp);
    this.failures.push(...diffs.map((d) => `frame ${rec.frame}: ${d}`));
    this.traces.push(trace);
  }

  async close(): Promise<void> {}
}

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

function frameOf(line: string | undefined): number | null {
  const m = /^\{"frame":(\d+)/.exec(line ?? '');
  return m === null ? null : Number(m[1]);
}

async function runCapture(c: CaptureCase, ctx: RunContext): Promise<CaseOutcome> {
  const out: CaseOutcome = { failures: [], traces: [], warnings: [], notes: [] };
  const { snapshot, options } = ctx.paths;
  const tmp = c.golden === null ? null : mkdtempSync(path.join(tmpdir(), 'edgesim-golden-'));
  const actualPath = tmp === null ? null : path.join(tmp, 'verdicts.ndjson');
  let check: FrameCheck | undefined;
  try {
    const built = await buildPacketPath(snapshot, options);
    const { report, warnings } = await replay(await OpenCapture.open(c.capture), built, {
      sinks: (firewall) => {
        check = new FrameCheck(c.frames, firewall, built.atp.active ? built.atp : null);
        return actualPath === null ? [check] : [check, new NdjsonSink(new TextSink(actualPath), firewall)];
      },
    });
    out.warnings.push(...warnings, ...report.capture.warnings);
    for (const n of report.notes) out.warnings.push(`${n.packets} packet${n.packets === 1 ? '' : 's'}: ${n.note} (first: frame ${n.firstFrame})`);
    const totals: Record<string, number> = { packets: report.packets, pass: report.passed, drop: report.dropped };
    for (const [k, want] of Object.entries(c.totals)) if (totals[k] !== want) out.failures.push(`totals.${k}: expected ${want}, got ${totals[k]}`);
    const f = check!;
    for (const frame of c.frames.keys()) if (!f.seen.has(frame)) out.failures.push(`frame ${frame}: the capture has only ${report.packets} frames`);
    out.failures.push(...f.failures);
    out.traces.push(...f.traces.slice(0, 3));
    for (const [ref, want] of c.byRule) {
      const got = report.rules.find((r) => r.ref === ref)!.decided;
      if (got !== want) out.failures.push(`by_rule.${ref}: expected ${want} packets decided, got ${got}`);
    }
    if (actualPath !== null) await compareGolden(c, actualPath, ctx, out);
  } finally {
    if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

async function compareGolden(c: CaptureCase, actualPath: string, ctx: RunContext, out: CaseOutcome): Promise<void> {
  const golden = c.golden!;
  const name = c.goldenName!;
  const actualText = readFileSync(actualPath, 'utf8');
  const actual = lines(actualText);
  const exists = existsSync(golden);
  const expected = exists ? lines(readFileSync(golden, 'utf8')) : [];
  const changed: number[] = [];
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    if (actual[i] !== expected[i]) changed.push(frameOf(actual[i]) ?? frameOf(expected[i]) ?? i + 1);
  }
  if (ctx.update) {
    if (exists && changed.length === 0) {
      out.notes.push(`golden ${name}: 0 frames changed`);
      return;
    }
    try {
      writeFileSync(golden, actualText);
    } catch (err) {
      throw new OutputError(golden, err);
    }
    out.notes.push(exists ? `golden ${name}: ${changed.length} frames changed, rewritten` : `golden ${name}: created (${actual.length} frames)`);
    return;
  }
  if (!exists) {
    out.failures.push(`golden ${name} does not exist: create it from the current results with \`edgesim test ${c.suiteFile} --update\``);
    return;
  }
  if (changed.length === 0) return;
  const first = changed[0]!;
  const i = actual.findIndex((l) => frameOf(l) === first);
  const j = expected.findIndex((l) => frameOf(l) === first);
  out.failures.push(`golden ${name}: ${changed.length} frames differ; first, frame ${first}: expected ${expected[j] ?? '(no line)'}, got ${actual[i] ?? '(no line)'}`);
  if (i >= 0) out.traces.push(await traceFrame(ctx.paths.snapshot, ctx.paths.options, c.capture, first));
}

export const captureKind: CaseKind<CaptureCase> = {
  key: 'capture',
  keys: [],
  expectKeys: ['totals', 'frames', 'by_rule', 'golden'],
  parse(value, expect, _keys, ctx) {
    const capture = existingFile(value, ctx.dir, 'a capture');
    return { capture, suiteFile: ctx.file, ...parseExpect(expect, ctx.paths.refs, ctx.dir) };
  },
  run: runCapture,
};
