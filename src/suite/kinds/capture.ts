// Capture cases: a pcap or pcapng replayed through the suite's configuration, checked against
// `totals` (packets passed and dropped), `frames` (frame number -> verdict or expectation), `by_rule`
// (rule ref -> packets it decided) and `golden` (every frame's verdict in the replay's NDJSON
// format). `--update` rewrites golden files, and only those, from the current result (btest's -U).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PacketRecord } from '../../capture/record.js';
import { counted } from '../../numbers.js';
import type { Firewall } from '../../firewall/firewall.js';
import { NdjsonSink, type PacketSink } from '../../sim/outputs/packet-sinks.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import type { AdvancedTcpProtection } from '../../atp/index.js';
import { buildPacketPath } from '../../sim/build.js';
import { OpenCapture } from '../../sim/packet-loop.js';
import { replay } from '../../sim/replay.js';
import type { PacketVerdict } from '../../sim/verdict.js';
import { compareGolden, GoldenDraft, goldenPath } from '../golden-file.js';
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
  /** the folder golden files live under */
  suiteDir: string;
}

function count(at: Located): number {
  const n = at.value;
  if (at.type !== 'number' || !Number.isInteger(n) || (n as number) < 0) at.fail(`expected a number of packets (0 or more), got ${String(n)}`);
  return n as number;
}

function parseExpect(expect: Map<string, Located>, refs: KnownRefs, dir: string): Omit<CaptureCase, 'capture' | 'suiteFile' | 'suiteDir'> {
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
  const golden = g === undefined ? null : goldenPath(g, dir);
  return { totals, frames, byRule, golden, goldenName: g === undefined ? null : (g.value as string) };
}

/** the traces a capture case shows: of the first frames that were not as expected */
const TRACED = 3;

/** Checks the `frames` expectations as the replay goes; traces the first frames that do not match. */
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
    this.failures.push(...diffs.map((d) => `frame ${rec.frame}: ${d}`));
    if (this.traces.length < TRACED) this.traces.push(tracePacket(rec, v, this.firewall, this.atp));
  }

  async close(): Promise<void> {}
}

async function runCapture(c: CaptureCase, ctx: RunContext): Promise<CaseOutcome> {
  const out: CaseOutcome = { failures: [], traces: [], warnings: [], notes: [] };
  const { snapshot, options } = ctx.paths;
  // under --update the actual verdicts are written beside the golden, to be renamed over it
  const draft = c.golden !== null && ctx.update ? new GoldenDraft(c.golden, c.suiteDir) : null;
  const tmp = c.golden === null || draft !== null ? null : mkdtempSync(path.join(tmpdir(), 'edgesim-golden-'));
  const actualPath = draft?.temp ?? (tmp === null ? null : path.join(tmp, 'verdicts.ndjson'));
  let check: FrameCheck | undefined;
  try {
    const built = await buildPacketPath(snapshot, options);
    const { report, warnings } = await replay(await OpenCapture.open(c.capture), built, {
      sinks: (firewall) => {
        check = new FrameCheck(c.frames, firewall, built.atp.active ? built.atp : null);
        const counting = ctx.coverage === undefined ? [] : [ctx.coverage.sink()];
        return actualPath === null ? [check, ...counting] : [check, ...counting, new NdjsonSink(draft?.writer() ?? new TextSink(actualPath), firewall)];
      },
    });
    out.warnings.push(...warnings, ...report.capture.warnings);
    for (const n of report.notes) out.warnings.push(`${n.packets} packet${n.packets === 1 ? '' : 's'}: ${n.note} (first: frame ${n.firstFrame})`);
    const totals: Record<string, number> = { packets: report.packets, pass: report.passed, drop: report.dropped };
    for (const [k, want] of Object.entries(c.totals)) if (totals[k] !== want) out.failures.push(`totals.${k}: expected ${want}, got ${totals[k]}`);
    const f = check!;
    for (const frame of c.frames.keys()) if (!f.seen.has(frame)) out.failures.push(`frame ${frame}: the capture has only ${counted(report.packets, 'frame')}`);
    out.failures.push(...f.failures);
    out.traces.push(...f.traces);
    for (const [ref, want] of c.byRule) {
      const got = report.rules.find((r) => r.ref === ref)!.decided;
      if (got !== want) out.failures.push(`by_rule.${ref}: expected ${counted(want, 'packet')} decided, got ${got}`);
    }
    if (actualPath !== null) await checkGolden(c, actualPath, draft, report.packets, ctx, out);
  } finally {
    draft?.discard();
    if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/** Compares the actual verdicts with the golden file, or (with a draft, under --update) rewrites the golden when they differ. */
async function checkGolden(c: CaptureCase, actualPath: string, draft: GoldenDraft | null, frames: number, ctx: RunContext, out: CaseOutcome): Promise<void> {
  const golden = c.golden!;
  const name = c.goldenName!;
  const exists = existsSync(golden);
  if (!exists && draft === null) {
    out.failures.push(`golden ${name} does not exist: create it from the current results with \`edgesim test ${c.suiteFile} --update\``);
    return;
  }
  const diff = exists ? await compareGolden(actualPath, golden) : null;
  if (draft !== null) {
    if (diff?.changed === 0) {
      out.notes.push(`golden ${name}: 0 frames changed`);
      return;
    }
    if (out.failures.length > 0 && !ctx.force) {
      out.failures.push(`golden ${name} not rewritten: the case fails for another reason too (${out.failures[0]}); --update --force rewrites it anyway`);
      return;
    }
    draft.commit();
    out.written = [name];
    out.notes.push(diff === null ? `golden ${name}: created (${counted(frames, 'frame')})` : `golden ${name}: ${counted(diff.changed, 'frame')} changed, rewritten`);
    return;
  }
  const first = diff!.first;
  if (first === null) return;
  out.failures.push(`golden ${name}: ${counted(diff!.changed, 'frame')} differ${diff!.changed === 1 ? 's' : ''}; first, frame ${first.frame}: expected ${first.expected ?? '(no line)'}, got ${first.actual ?? '(no line)'}`);
  if (first.actual !== null) out.traces.push(await traceFrame(ctx.paths.snapshot, ctx.paths.options, c.capture, first.frame));
}

export const captureKind: CaseKind<CaptureCase> = {
  key: 'capture',
  keys: [],
  expectKeys: ['totals', 'frames', 'by_rule', 'golden'],
  parse(value, expect, _keys, ctx) {
    const capture = existingFile(value, ctx.dir, 'a capture');
    ctx.files.reads.push({ what: `the capture of case ${JSON.stringify(ctx.caseName)}`, path: capture, at: value });
    const c: CaptureCase = { capture, suiteFile: ctx.file, suiteDir: ctx.dir, ...parseExpect(expect, ctx.paths.refs, ctx.dir) };
    if (c.golden !== null) ctx.files.goldens.push({ what: `the golden file of case ${JSON.stringify(ctx.caseName)}`, path: c.golden, at: expect.get('golden')! });
    return c;
  },
  run: runCapture,
};
