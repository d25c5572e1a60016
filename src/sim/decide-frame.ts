// The one place a frame goes from its bytes to its final verdict, in the vendor's order:
//
//   lane        the compiled program or the decoder, chosen once for the frame (lane.ts) and counted
//   headers     where the IP and transport headers are and what they say
//   enrichment  the looked-up fields (country, AS number, data center): on the decoder's lane before
//               the stages that read them; on the compiled lane when a rule first asks
//   protection  Advanced TCP Protection, for a TCP packet to a protected prefix (run.protection)
//   firewall    the rulesets of phase edge_transit, first terminating match decides
//   verdict     pass or drop, the stage and rule that decided (PacketVerdict, the one record every
//               output renders)
//
// A frame without IP passes uninspected after its headers. A packet protection drops never reaches
// the firewall, on either lane, so nothing is counted that must be taken back. The path is
// immutable; what deciding changes is the run's (run.ts).
import { readAddresses } from '../capture/decode/ip.js';
import { decodeInto } from '../capture/decode/link-up.js';
import { decodeTransport } from '../capture/decode/transport.js';
import type { Frame } from '../capture/frame.js';
import { Has, type PacketRecord } from '../capture/record.js';
import { FALLBACK, NOT_IP } from '../fastpath/fast-firewall.js';
import type { CompiledPath } from './compiled-path.js';
import { Because, Lane, laneOf } from './lane.js';
import type { Run } from './run.js';
import type { PacketVerdict } from './verdict.js';

const TCP = 6;

/** Decides `frame` on `path` in `run`; the verdict (run.verdict, reused) holds until the run's next frame. */
export function decideFrame(frame: Frame, path: CompiledPath, run: Run): PacketVerdict {
  const v = run.verdict;
  let because = laneOf(frame, run.decoderBecause);
  if (because === Because.COMPILED && !compiledLane(frame, path, run, v)) because = Because.DECODE_NOTE;
  if (because !== Because.COMPILED) {
    decodeInto(v.record, frame);
    decideRecord(v.record, path, run);
  }
  v.lane = because === Because.COMPILED ? Lane.COMPILED : Lane.DECODER;
  run.count(because);
  return v;
}

/**
 * The decoder's lane from its headers on: `rec` is a decoded packet (decideFrame decodes the frame
 * into run.verdict.record; a test may give a record of its own). Decides it into run.verdict.
 */
export function decideRecord(rec: PacketRecord, path: CompiledPath, run: Run): PacketVerdict {
  const v = run.verdict;
  if (run.protection !== null) v.atp.reset();
  if ((rec.present & Has.IP) === 0) {
    v.passUninspected();
    return v;
  }
  path.enrichment?.enrich(rec);
  run.overrides?.enrich(rec);
  if (protect(rec, run, v)) return v;
  path.firewall.evaluate(rec, v.firewall);
  v.setFromFirewall();
  return v;
}

/**
 * The compiled lane: false when the program cannot read the frame's headers (it takes the decoder's
 * lane). With protection, the program reads the headers alone first, protection decides on the
 * fields it reads at their places (the decoder's own TCP reader), and then the program decides the
 * firewall's part; without, one generated function reads the headers and runs the rules. The
 * looked-up fields a rule reads are looked up when it first asks (fastpath/frame-record.ts).
 */
function compiledLane(frame: Frame, path: CompiledPath, run: Run, v: PacketVerdict): boolean {
  const program = path.program!;
  const out = run.program!;
  const rec = v.record;
  const d = frame.data;
  const off = frame.off;
  const end = off + frame.capLen;
  let fam: number;
  if (run.protection !== null) {
    fam = program.headers(d, off, end, frame.origLen, frame.linkType, out);
    if (fam === FALLBACK) return false;
    rec.setUndecoded(frame, fam);
    v.atp.reset();
    if (fam === NOT_IP) {
      v.passUninspected();
      return true;
    }
    readProtectedFields(rec, d, out.l3, fam, out);
    if (protect(rec, run, v)) return true;
    program.decide(d, off, end, frame.origLen, frame.linkType, out);
  } else {
    fam = program.decide(d, off, end, frame.origLen, frame.linkType, out);
    if (fam === FALLBACK) return false;
    rec.setUndecoded(frame, fam);
  }
  v.setFromFirewall();
  // the summary counts where drops came from and went to
  if (v.column !== 0 && (rec.present & Has.IP) === 0) readAddresses(rec, d, out.l3, fam);
  return true;
}

/** What protection reads of an IP packet on the compiled lane, read as the decoder reads it: the addresses, and a TCP header. */
function readProtectedFields(rec: PacketRecord, d: Uint8Array, l3: number, fam: number, at: { l4: number; l3e: number; ipLen: number; tcp: number }): void {
  rec.present = Has.IP;
  readAddresses(rec, d, l3, fam);
  if (at.tcp !== 1) return;
  rec.proto = TCP;
  rec.l3Off = l3;
  rec.l3End = at.l3e;
  rec.ipLen = at.ipLen;
  decodeTransport(rec, TCP, d, at.l4, at.l3e);
}

/** The protection stage: true when it dropped the packet (the verdict is then set). */
function protect(rec: PacketRecord, run: Run, v: PacketVerdict): boolean {
  const atp = run.protection;
  if (atp === null) return false;
  atp.inspect(rec, v.atp);
  if (!v.atp.drop) return false;
  v.setFromAtp();
  return true;
}
