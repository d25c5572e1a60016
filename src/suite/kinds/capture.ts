// Capture cases: a pcap or pcapng (or a list of them, replayed merged by time) replayed through the
// suite's configuration, checked against `totals` (packets passed and dropped), `frames` (frame
// number -> verdict or expectation; `FILE:N` for frame N of FILE of a list), `by_rule` (rule ref ->
// packets it decided) and `golden` (every frame's verdict in the replay's NDJSON format, with the
// file of each frame of a list as the suite names it). `--update` rewrites golden files, and only
// those, from the current result (btest's -U).
import { labelsPathFor } from '../../capture/synth/label-path.js';
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
import type { ReplayReport } from '../../sim/summary.js';
import type { PacketVerdict } from '../../sim/verdict.js';
import { compareGolden, GoldenDraft, goldenPath } from '../golden-file.js';
import { existingFile, type Located } from '../source.js';
import type { CaseKind, CaseOutcome, RunContext } from '../suite.js';
import { tracePacket, verdictSummary, type PacketTrace } from '../trace.js';
import { traceFrame } from '../trace-frame.js';
import { compareVerdict, missingRef, parseFrameExpectation, type KnownRefs, type VerdictExpectation } from '../verdict-expect.js';

export interface CaptureCase {
  /** the captures' paths: one, or several replayed merged by time */
  captures: string[];
  /** with several captures: each as the suite names it (per-frame keys and golden lines name files so); null for one */
  names: string[] | null;
  totals: { packets?: number; pass?: number; drop?: number };
  /** by frame key: the frame number, or `FILE:N` with several captures (frameKey) */
  frames: Map<string, VerdictExpectation>;
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

function parseExpect(expect: Map<string, Located>, refs: KnownRefs, dir: string, names: string[] | null): Omit<CaptureCase, 'captures' | 'names' | 'suiteFile' | 'suiteDir'> {
  const totals: CaptureCase['totals'] = {};
  const t = expect.get('totals');
  if (t !== undefined) for (const [k, at] of t.checkKeys(['packets', 'pass', 'drop'])) totals[k as 'pass'] = count(at);
  const frames = new Map<string, VerdictExpectation>();
  for (const [k, at] of expect.get('frames')?.entries('a map of frame numbers to verdicts') ?? []) {
    if (names === null) {
      if (!/^[1-9][0-9]*$/.test(k)) at.failKey('expected a frame number (1, 2, ...; frames are numbered as Wireshark numbers them)');
    } else {
      const m = /^(.*):([1-9][0-9]*)$/.exec(k);
      if (m === null || !names.includes(m[1]!)) at.failKey(`expected FILE:N, frame N of one of the case's captures (${names.join(', ')}), numbered in its file as Wireshark numbers them`);
    }
    frames.set(k, parseFrameExpectation(at, refs));
  }
  const byRule = new Map<string, number>();
  for (const [ref, at] of expect.get('by_rule')?.entries('a map of rule refs to packet counts') ?? []) byRule.set(ref, count(at));
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
  readonly seen = new Set<string>();

  constructor(
    private readonly frames: Map<string, VerdictExpectation>,
    private readonly names: string[] | null,
    private readonly firewall: Firewall,
    private readonly atp: AdvancedTcpProtection | null,
  ) {}

  packet(rec: PacketRecord, v: PacketVerdict): void {
    if (this.frames.size === 0) return;
    const key = frameKey(rec.frame, rec.file, this.names);
    const want = this.frames.get(key);
    if (want === undefined) return;
    this.seen.add(key);
    const diffs = compareVerdict(want, verdictSummary(v, this.firewall));
    if (diffs.length === 0) return;
    this.failures.push(...diffs.map((d) => `frame ${key}: ${d}`));
    if (this.traces.length < TRACED) this.traces.push(tracePacket(rec, v, this.firewall, this.atp));
  }

  async close(): Promise<void> {}
}

/** How a case names a frame: its number, or `FILE:N` with several captures (`names`). */
function frameKey(frame: number, file: number, names: string[] | null): string {
  return names === null ? String(frame) : `${names[file]!}:${frame}`;
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
    const { report, warnings } = await replay(await OpenCapture.open(c.captures), built, {
      sinks: (firewall) => {
        check = new FrameCheck(c.frames, c.names, firewall, built.atp.active ? built.atp : null);
        const counting = ctx.coverage === undefined ? [] : [ctx.coverage.sink()];
        return actualPath === null ? [check, ...counting] : [check, ...counting, new NdjsonSink(draft?.writer() ?? new TextSink(actualPath), firewall, [], c.names)];
      },
      // coverage reads every field of every packet: the fast path decides a frame without decoding it
      fastPath: ctx.coverage === undefined,
    });
    out.warnings.push(...warnings, ...report.capture.warnings);
    for (const n of report.notes) out.warnings.push(`${n.packets} packet${n.packets === 1 ? '' : 's'}: ${n.note} (first: frame ${n.firstFile === undefined ? '' : `${n.firstFile}:`}${n.firstFrame})`);
    const totals: Record<string, number> = { packets: report.packets, pass: report.passed, drop: report.dropped };
    for (const [k, want] of Object.entries(c.totals)) if (totals[k] !== want) out.failures.push(`totals.${k}: expected ${want}, got ${totals[k]}`);
    const f = check!;
    for (const key of c.frames.keys()) if (!f.seen.has(key)) out.failures.push(`frame ${key}: ${missingFrame(key, c, report)}`);
    out.failures.push(...f.failures);
    out.traces.push(...f.traces);
    for (const [ref, want] of c.byRule) {
      const rule = report.rules.find((r) => r.ref === ref);
      if (rule === undefined) out.failures.push(`by_rule.${ref}: ${missingRef(ref, report.rules.map((r) => r.ref))}`);
      else if (rule.decided !== want) out.failures.push(`by_rule.${ref}: expected ${counted(want, 'packet')} decided, got ${rule.decided}`);
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
  const file = first.file === null || c.names === null ? 0 : c.names.indexOf(first.file);
  out.failures.push(`golden ${name}: ${counted(diff!.changed, 'frame')} differ${diff!.changed === 1 ? 's' : ''}; first, frame ${frameKey(first.frame, file, c.names)}: expected ${first.expected ?? '(no line)'}, got ${first.actual ?? '(no line)'}`);
  if (first.actual !== null && file >= 0) out.traces.push(await traceFrame(ctx.paths.snapshot, ctx.paths.options, c.captures, first.frame, file));
}

/** Why an expected frame was not seen: the capture (or its file of a list) has fewer frames. */
function missingFrame(key: string, c: CaptureCase, report: ReplayReport): string {
  const files = report.capture.files;
  if (c.names === null || files === undefined) return `the capture has only ${counted(report.packets, 'frame')}`;
  const name = key.slice(0, key.lastIndexOf(':'));
  return `${name} has only ${counted(files[c.names.indexOf(name)]!.packets, 'packet')}`;
}

export const captureKind: CaseKind<CaptureCase> = {
  key: 'capture',
  keys: [],
  expectKeys: ['totals', 'frames', 'by_rule', 'golden'],
  parse(value, expect, _keys, ctx) {
    // a list: several captures (one file per server, or parts of one), replayed merged by time
    const list = value.type === 'list' ? value.items('a list of captures') : [value];
    if (list.length === 0) value.fail('expected a capture, or a list of captures to replay merged by time, got an empty list');
    const captures = list.map((at) => existingFile(at, ctx.dir, 'a capture'));
    for (const [i, capture] of captures.entries()) {
      ctx.files.reads.push({ what: `the capture of case ${JSON.stringify(ctx.caseName)}`, path: capture, at: list[i]! });
      // its label sidecar is read with it (when there is one): no golden may take that name
      ctx.files.reads.push({ what: `the label sidecar of the capture of case ${JSON.stringify(ctx.caseName)}`, path: labelsPathFor(capture), at: list[i]! });
    }
    const names = value.type === 'list' ? list.map((at) => at.value as string) : null;
    if (names !== null && new Set(names).size < names.length) value.fail('a capture is listed twice');
    const c: CaptureCase = { captures, names, suiteFile: ctx.file, suiteDir: ctx.dir, ...parseExpect(expect, ctx.paths.refs, ctx.dir, names) };
    if (c.golden !== null) ctx.files.goldens.push({ what: `the golden file of case ${JSON.stringify(ctx.caseName)}`, path: c.golden, at: expect.get('golden')! });
    return c;
  },
  run: runCapture,
};
