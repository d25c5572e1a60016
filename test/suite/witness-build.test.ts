// Every witness the analysis offers is buildable: the packet lint and pin give for each reachable
// rule (analysis/witness.ts) is a suite packet the builder writes into real bytes, which read back as
// the witness's fields and are decided by that rule on the suite's path. On random rulesets over the
// analysis' vocabulary and over lengths and headers near their bounds; and `pin` pins a rule on
// `ip.len <= 28` (the analysis offered ip.len 0, which no decoded packet has, and the rule was left
// unpinned).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelFirewalls } from '../../src/analysis/model.js';
import { ruleStatus } from '../../src/analysis/lint.js';
import { witnessOf } from '../../src/analysis/witness.js';
import { decodeInto } from '../../src/capture/decode/link-up.js';
import { Frame } from '../../src/capture/frame.js';
import { PacketRecord } from '../../src/capture/record.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { LOOKUP_FIELDS } from '../../src/fields/lookups.js';
import { recordFields } from '../../src/fields/render.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { parsePacket } from '../../src/suite/packet-spec.js';
import { pinnedCases } from '../../src/suite/pin/pin-suite.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { ATOMS, snapshotOf } from '../analysis/replay.js';

/** lengths and headers at and near the least a packet of each kind has */
const BOUNDS = [
  'ip.len <= 28',
  'ip.len < 41',
  'ip.len in {28 38}',
  'ip.len == 24',
  'ip.len > 65535',
  'ip.hdr_len > 10 and ip.len < 100',
  'ip.opt.type == 7',
  'icmp.type in {3 5 11}',
  'icmp.type == 1 and ip.src in {2001:db8::/32}',
  'ip.proto == "gre"',
];

const atom = fc.constantFrom(...ATOMS, ...BOUNDS, ...BOUNDS);
const expression = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof({ depthSize: 'small' }, atom, atom, tie('e').map((x) => `not (${x})`), fc.tuple(tie('e'), fc.constantFrom('and', 'or'), tie('e')).map(([a, op, b]) => `(${a}) ${op} (${b})`)),
})).e;
const ruleSpecs = fc.array(fc.record({ action: fc.constantFrom('block' as const, 'log' as const, 'skip' as const), expression, enabled: fc.constant(true) }), { minLength: 1, maxLength: 6 });

describe('witnesses the analysis offers', () => {
  it('are built into packets that read back as the witness and are decided by the rule', async () => {
    let witnesses = 0;
    await fc.assert(
      fc.asyncProperty(ruleSpecs, async (specs) => {
        const snapshot = snapshotOf(specs);
        const { space, firewalls } = modelFirewalls([{ snapshot }]);
        const paths = await SuitePaths.open(snapshot, {});
        const model = firewalls[0]!;
        model.rules.forEach((rule, i) => {
          const status = ruleStatus(model, i);
          if (status.kind !== 'reachable') return;
          witnesses++;
          const w = witnessOf(status.witnessRegion[0]!, space.names, undefined, true);
          const spec = parsePacket(parseSuiteText('witness.yaml', JSON.stringify(w)));
          const frame = new Frame();
          new PacketBuilder().build(spec, frame);
          const rec = new PacketRecord();
          decodeInto(rec, frame);
          const read = recordFields(rec);
          const own = Object.entries(w).filter(([k]) => !LOOKUP_FIELDS.has(k));
          expect(Object.fromEntries(own.map(([k]) => [k, read[k]])), JSON.stringify(w)).toEqual(Object.fromEntries(own));
          const v = paths.fresh().decide(frame, spec.lookups);
          if (rule.action === 'log') expect(v.matchedRefs(), JSON.stringify(w)).toContain(rule.ref);
          else expect(v.rule, JSON.stringify(w)).toBe(rule.ref);
        });
      }),
      { numRuns: 150 },
    );
    expect(witnesses).toBeGreaterThan(150);
  });

  it('pins a rule on a length no packet with a transport header reaches', async () => {
    const snapshot: Snapshot = {
      rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'tiny', action: 'block', expression: 'ip.len <= 28' }, { ref: 'errors', action: 'block', expression: 'icmp.type in {3 11} and ip.len in {28 38}' }] }],
    };
    const { cases, unpinned } = pinnedCases(snapshot, await SuitePaths.open(snapshot, {}));
    expect(unpinned).toEqual([]);
    expect(cases.find((c) => c.name === 'tiny')?.expect).toEqual({ verdict: 'drop', rule: 'tiny' });
  });
});
