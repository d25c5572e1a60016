// Matchers for vitest and jest (`import { matchers } from 'edgesim/vitest'; expect.extend(matchers)`):
// expect(sim).toPass(packet), .toDrop(packet), .toBeDecidedBy(packet, ref). Each decides the packet
// as the next of the simulator's conversation (sim.trace), and a failure shows the packet's trace
// as `edgesim trace` prints it. Imports no test framework: the result shape is the one both take.
import { formatTrace } from '../suite/reports/trace-text.js';
import type { PacketTrace } from '../suite/trace.js';
import type { Packet } from './packet.js';
import type { Simulator } from './simulator.js';

/** What a matcher returns to vitest's and jest's expect.extend. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function isSimulator(value: unknown): value is Simulator {
  return typeof value === 'object' && value !== null && typeof (value as Simulator).trace === 'function';
}

function traced(received: unknown, matcher: string, packet: Packet): PacketTrace {
  if (!isSimulator(received)) throw new TypeError(`${matcher}: expect() takes a simulator (createSimulator), got ${received === null ? 'null' : typeof received}`);
  return received.trace(packet);
}

/** `decided by …`: the verdict, the stage and the deciding rule as one line. */
function outcome(t: PacketTrace): string {
  return `${t.verdict}${t.stage === null ? '' : ` at ${t.stage}`}${t.rule === null ? ' (no deciding rule)' : ` by ${t.rule}`}`;
}

function result(pass: boolean, isNot: boolean | undefined, wanted: string, packet: Packet, t: PacketTrace): MatcherResult {
  return {
    pass,
    message: () => `expected ${JSON.stringify(packet)} ${isNot === true ? 'not ' : ''}to ${wanted}, but it was ${outcome(t)}\n\n${formatTrace(t)}`,
  };
}

interface MatcherContext {
  isNot?: boolean;
}

export const matchers = {
  /** The packet passes. */
  toPass(this: MatcherContext, sim: unknown, packet: Packet): MatcherResult {
    const t = traced(sim, 'toPass', packet);
    return result(t.verdict === 'pass', this.isNot, 'pass', packet, t);
  },
  /** The packet is dropped (by the firewall or by protection). */
  toDrop(this: MatcherContext, sim: unknown, packet: Packet): MatcherResult {
    const t = traced(sim, 'toDrop', packet);
    return result(t.verdict === 'drop', this.isNot, 'be dropped', packet, t);
  },
  /** The packet's verdict is decided by the rule (a firewall rule's ref, or an ATP rule or filter). */
  toBeDecidedBy(this: MatcherContext, sim: unknown, packet: Packet, ref: string): MatcherResult {
    const t = traced(sim, 'toBeDecidedBy', packet);
    return result(t.rule === ref, this.isNot, `be decided by ${ref}`, packet, t);
  },
};

/** The matchers' types for vitest (`declare module 'vitest'`) and jest: `interface Matchers<R> extends EdgesimMatchers<R> {}`. */
export interface EdgesimMatchers<R = unknown> {
  toPass(packet: Packet): R;
  toDrop(packet: Packet): R;
  toBeDecidedBy(packet: Packet, ref: string): R;
}
