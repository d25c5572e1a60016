// The lane a frame takes to its verdict: the path's compiled program, which reads the frame's bytes
// (fastpath/), or the decoder and the firewall's evaluator. It is chosen once per frame, here, from
// what the run was made for (a run whose caller reads every packet's fields, or that has no program,
// takes the decoder's lane) and the frame's link type, and it is counted (engine-counts.ts). The
// compiled lane hands a frame whose headers it cannot read (the decoder would note it) to the
// decoder's lane, which is counted under that reason. Both lanes give every frame the same verdict
// (test/fastpath/).
import type { Frame } from '../capture/frame.js';
import { PROGRAM_LINK_TYPES } from '../fastpath/fast-firewall.js';

export const Lane = { COMPILED: 0, DECODER: 1 } as const;
export type LaneCode = (typeof Lane)[keyof typeof Lane];

/** Why a frame took its lane: COMPILED, or why the decoder's (LANE_REASONS names each). */
export const Because = { COMPILED: 0, DECODE_NOTE: 1, LINK_TYPE: 2, RECORD_NEEDED: 3, NO_PROGRAM: 4 } as const;

/** What the lane counts call each reason for the decoder's lane, by its Because code. */
export const LANE_REASONS: readonly string[] = ['', 'decode note', 'link type', 'compiled path switched off', 'protection scoped by data center or region'];

const READ_LINK_TYPES = new Uint8Array(1 + Math.max(...PROGRAM_LINK_TYPES));
for (const t of PROGRAM_LINK_TYPES) READ_LINK_TYPES[t] = 1;

/**
 * The lane of `frame` on a run: `decoderBecause` is the Because code of a run that takes the decoder's
 * lane for every frame (COMPILED: the run has the compiled lane). Returns a Because code.
 */
export function laneOf(frame: Frame, decoderBecause: number): number {
  if (decoderBecause !== Because.COMPILED) return decoderBecause;
  const t = frame.linkType;
  return t < READ_LINK_TYPES.length && READ_LINK_TYPES[t] === 1 ? Because.COMPILED : Because.LINK_TYPE;
}
