// Packet cases: `packet:` (one packet) and `packets:` (a short timed sequence, e.g. a handshake, when
// protection state matters). Each packet is built into real frame bytes and decoded (see
// packet-builder.ts), then decided on a path with fresh protection state. The expectation applies to
// the last packet of a sequence unless `expect.packet` names one (1-based).
import { Frame } from '../../capture/frame.js';
import type { PacketVerdict } from '../../sim/verdict.js';
import { PacketBuilder } from '../packet-builder.js';
import { parsePacket, type PacketSpec } from '../packet-spec.js';
import type { Located } from '../source.js';
import type { CaseKind, CaseOutcome, LoadContext, RunContext } from '../suite.js';
import type { CasePath, SuitePaths } from '../case-path.js';
import type { ConfigurationCoverage } from '../coverage.js';
import { tracePacket, verdictSummary, type PacketTrace } from '../trace.js';
import { compareVerdict, parseVerdictExpectation, VERDICT_KEYS, type VerdictExpectation } from '../verdict-expect.js';

export interface PacketCase {
  /** the packets in order, as often as the case runs: a list read in parts is read again rather than held (1M packets held took 2 GB) */
  packets: Iterable<PacketSpec>;
  count: number;
  /** index of the packet the expectation is about */
  target: number;
  expect: VerdictExpectation;
}

const frame = new Frame();

/** Decides packets 0..target in order in a fresh run (counting each in `coverage`); returns the run and packet `target`'s verdict. */
function decide(packets: Iterable<PacketSpec>, target: number, paths: SuitePaths, coverage?: ConfigurationCoverage): { path: CasePath; verdict: PacketVerdict } {
  const path = paths.fresh();
  const builder = new PacketBuilder();
  let verdict = path.run.verdict;
  let i = 0;
  for (const spec of packets) {
    builder.build(spec, frame);
    verdict = path.decide(frame, spec.lookups);
    coverage?.packet(verdict);
    if (i++ === target) break;
  }
  return { path, verdict };
}

/** The trace of packet `target` after packets 0..target went through a fresh run. */
export function tracePackets(packets: Iterable<PacketSpec>, target: number, paths: SuitePaths): PacketTrace {
  const { path, verdict } = decide(packets, target, paths);
  return tracePacket(verdict, paths.firewall, path.run.protection);
}

function runPackets(c: PacketCase, ctx: RunContext): CaseOutcome {
  const { path, verdict } = decide(c.packets, c.target, ctx.paths, ctx.coverage);
  const failures = compareVerdict(c.expect, verdictSummary(verdict));
  const notes = c.expect.note === undefined ? [] : [c.expect.note];
  if (failures.length === 0) return { failures, traces: [], warnings: [], notes };
  const where = c.count > 1 ? `packet ${c.target + 1}: ` : '';
  const trace = tracePacket(verdict, ctx.paths.firewall, path.run.protection);
  return { failures: failures.map((f) => where + f), traces: [trace], warnings: [], notes };
}

function parseExpect(expect: Map<string, Located>, ctx: LoadContext): VerdictExpectation {
  return parseVerdictExpectation(expect, ctx.paths.refs);
}

/** The packets of a list read in parts, built again from its text part by part each time they are iterated (checked when the case was loaded). */
function rereadPackets(list: Located): Iterable<PacketSpec> {
  return {
    *[Symbol.iterator]() {
      for (const item of list.eachItem()) yield parsePacket(item);
    },
  };
}

export const packetKind: CaseKind<PacketCase> = {
  key: 'packet',
  keys: [],
  expectKeys: VERDICT_KEYS,
  parse(value, expect, _keys, ctx) {
    return { packets: [parsePacket(value)], count: 1, target: 0, expect: parseExpect(expect, ctx) };
  },
  run: async (c, ctx) => runPackets(c, ctx),
};

export const packetsKind: CaseKind<PacketCase> = {
  key: 'packets',
  keys: [],
  expectKeys: [...VERDICT_KEYS, 'packet'],
  parse(value, expect, _keys, ctx) {
    // one at a time: a long list is read in parts, each part's document dropped once its packets are checked
    const held = value.readInParts ? null : ([] as PacketSpec[]);
    let count = 0;
    let last = -1;
    for (const item of value.eachItem('a list of packets')) {
      const p = parsePacket(item);
      if (p.time !== null) {
        if (p.time < last) item.fail(`time ${p.time} is before the previous packet's (${last}): packets are listed in time order`);
        last = p.time;
      }
      held?.push(p);
      count++;
    }
    if (count === 0) value.fail('expected at least one packet');
    let target = count - 1;
    const named = expect.get('packet');
    if (named !== undefined) {
      const n = named.value;
      if (named.type !== 'number' || !Number.isInteger(n) || (n as number) < 1 || (n as number) > count) {
        named.fail(`expected a packet number from 1 to ${count}, got ${String(n)}`);
      }
      target = (n as number) - 1;
    }
    return { packets: held ?? rereadPackets(value), count, target, expect: parseExpect(expect, ctx) };
  },
  run: async (c, ctx) => runPackets(c, ctx),
};
