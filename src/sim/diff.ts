// What a configuration change does to real traffic: every packet of one capture decided by two
// packet paths side by side (each with its own protection state, as two replays would have), and
// the frames whose verdict, deciding rule or deciding stage differ. Changes are grouped by
// (before rule, after rule, verdict change) for people, verdict changes first, with a count and the
// first frames of each group with their 5-tuples (a frame the fast path decided from its bytes is decoded in full for
// that, at most FIRST_FRAMES times a group); every changed frame also goes to `onChange` for the per-frame outputs (NDJSON, pcap).
import type { ReadInfo } from '../capture/merge.js';
import { decodeFrameAt } from '../capture/decode/link-up.js';
import { PacketRecord } from '../capture/record.js';
import { fiveTuple, type FiveTuple } from '../fields/render.js';
import type { BuiltPath } from './build.js';
import { PacketDecider } from './packet-decider.js';
import type { LoopOptions, OpenCapture } from './packet-loop.js';
import { decidingRule, type PacketVerdict, type Stage } from './verdict.js';
import { verdictName, type VerdictName } from '../verdict.js';

/** A packet's decision as the diff compares it. */
export interface Decision {
  verdict: VerdictName;
  rule: string | null;
  stage: Stage | null;
}

export interface ChangeGroup {
  before: Decision;
  after: Decision;
  packets: number;
  /** the first frames of the group, in capture order (groups first seen first when counts tie) */
  frames: number[];
  /** with several captures merged: the file of each of `frames` */
  files?: string[];
  /** the 5-tuple of each of `frames` */
  flows: FiveTuple[];
}

export interface DiffResult {
  capture: string;
  packets: number;
  changed: number;
  /** the groups whose verdict changes first, then those that keep it (another deciding rule or stage); largest first in each */
  groups: ChangeGroup[];
  info: ReadInfo;
}

/** Frames listed per group. */
const FIRST_FRAMES = 5;

export function decision(v: PacketVerdict, path: BuiltPath): Decision {
  return { verdict: verdictName(v.drop), rule: decidingRule(v, path.firewall), stage: v.stage };
}

function same(a: PacketVerdict, b: PacketVerdict, pathA: BuiltPath, pathB: BuiltPath): boolean {
  return a.drop === b.drop && a.stage === b.stage && decidingRule(a, pathA.firewall) === decidingRule(b, pathB.firewall);
}

/** The 5-tuple of a frame, which the fast path may have left undecoded. */
function flowOf(rec: PacketRecord, scratch: PacketRecord): FiveTuple {
  decodeFrameAt(scratch, rec.linkType, rec.data, rec.dataOff, rec.capLen, rec.origLen);
  return fiveTuple(scratch);
}

export interface DiffOptions extends LoopOptions {
  /** called for each changed frame, in capture order */
  onChange?: (rec: PacketRecord, before: Decision, after: Decision) => void;
}

/** How a report names the group's i-th frame: its number, after its file with several captures (`a.pcap:12`, as grep names a line). */
export function frameName(g: ChangeGroup, i: number): string {
  return g.files === undefined ? String(g.frames[i]) : `${g.files[i]}:${g.frames[i]}`;
}

/** Decides every packet of `capture` on both paths and collects the frames decided differently. */
export async function diffCapture(capture: OpenCapture, before: BuiltPath, after: BuiltPath, opts: DiffOptions = {}): Promise<DiffResult> {
  const a = PacketDecider.of(before);
  const b = PacketDecider.of(after);
  PacketDecider.shared([a, b]);
  const groups = new Map<string, ChangeGroup>();
  let packets = 0;
  let changed = 0;
  const scratch = new PacketRecord();
  const names = capture.fileNames;
  const info = await capture.forEachPacket((rec) => {
    packets++;
    const va = a.decide(rec);
    const vb = b.decide(rec);
    if (same(va, vb, before, after)) return;
    changed++;
    const da = decision(va, before);
    const db = decision(vb, after);
    const key = JSON.stringify([da, db]);
    let group = groups.get(key);
    if (group === undefined) {
      group = { before: da, after: db, packets: 0, frames: [], flows: [], ...(names === null ? {} : { files: [] }) };
      groups.set(key, group);
    }
    group.packets++;
    if (group.frames.length < FIRST_FRAMES) {
      group.frames.push(rec.frame);
      group.files?.push(names![rec.file]!);
      group.flows.push(flowOf(rec, scratch));
    }
    opts.onChange?.(rec, da, db);
  }, { ...opts, decodeFrame: a.decodeFrame });
  const keeps = (g: ChangeGroup): number => Number(g.before.verdict === g.after.verdict);
  // merged captures number frames per file: groups first seen first (the map's order) when the rest ties
  const sorted = [...groups.values()].sort((x, y) => keeps(x) - keeps(y) || y.packets - x.packets || (names === null ? x.frames[0]! - y.frames[0]! : 0));
  return { capture: capture.name, packets, changed, groups: sorted, info };
}
