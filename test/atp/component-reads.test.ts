// What each ATP component declares it reads of a packet (AtpComponent.reads) is exactly what it
// reads while it takes and decides packets, and the engine itself reads no more than ENGINE_READS:
// the fast path fills only these fields when protection is on, so a component that read a field it
// does not declare would decide on a stale value there. Reads are watched through a proxy of the
// record, each read charged to the component whose takes() or inspect() is running.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENGINE_READS, type AtpComponent, type RecordField } from '../../src/atp/atp-component.js';
import { AdvancedTcpProtection, AtpDecision } from '../../src/atp/index.js';
import { EgressTracking } from '../../src/atp/egress-tracking.js';
import { OutOfStateProtection } from '../../src/atp/out-of-state-protection.js';
import { SynProtection } from '../../src/atp/syn-protection.js';
import { PacketRecord } from '../../src/capture/record.js';
import { STAGES } from '../../src/atp/vocabulary.js';
import { ALWAYS_MITIGATING, SERVER, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { ACK, FIN, RST, SYN, capture, connection, fill, flood } from './helpers/traffic.js';

const SYN_CODE = STAGES.indexOf('syn_protection');
const OOS = STAGES.indexOf('tcp_flow_protection');

const ENGINE = -1;
const EGRESS = -2;

/** Every record field read while the engine inspects `packets`, by who read it: a component's code, EGRESS or ENGINE. */
function readsWhile(atp: AdvancedTcpProtection, packets: ReturnType<typeof capture>): Map<number, Set<string>> {
  const reads = new Map<number, Set<string>>();
  let reader = ENGINE;
  for (const component of [SynProtection, OutOfStateProtection]) {
    for (const method of ['takes', 'inspect'] as const) {
      const original = component.prototype[method] as (...args: unknown[]) => unknown;
      vi.spyOn(component.prototype, method).mockImplementation(function (this: AtpComponent, ...args: unknown[]) {
        const outer = reader;
        reader = this.stage;
        try {
          return original.apply(this, args);
        } finally {
          reader = outer;
        }
      } as never);
    }
  }
  const track = EgressTracking.prototype.track;
  vi.spyOn(EgressTracking.prototype, 'track').mockImplementation(function (this: EgressTracking, ...args: Parameters<typeof track>) {
    reader = EGRESS;
    try {
      track.apply(this, args);
    } finally {
      reader = ENGINE;
    }
  });
  const rec = new PacketRecord();
  const watched = new Proxy(rec, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) {
        if (!reads.has(reader)) reads.set(reader, new Set());
        reads.get(reader)!.add(key);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const out = new AtpDecision();
  packets.forEach((p, i) => {
    fill(rec, p, i + 1);
    atp.inspect(watched, out);
  });
  return reads;
}

const sorted = (fields: Iterable<string>) => [...fields].sort();

describe('what ATP components read of a packet', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('each component reads exactly the fields it declares, the engine only its own', () => {
    const prefixes = [
      { prefix: `${SERVER_NET}.0/24`, excluded: false },
      { prefix: '2001:db8::/48', excluded: false },
    ];
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], oos: [rule('monitoring')], prefixes }), { ...ALWAYS_MITIGATING, bidirectional: true });
    const traffic = capture(
      [
      flood({ start: 0, seconds: 1, pps: 50, dstNet: SERVER_NET, flags: SYN, seed: 1 }),
      flood({ start: 0.2, seconds: 1, pps: 50, dstNet: SERVER_NET, flags: ACK, seed: 2 }),
      flood({ start: 0.4, seconds: 1, pps: 20, dstNet: SERVER_NET, flags: RST, seed: 3 }),
      flood({ start: 0.6, seconds: 1, pps: 20, dstNet: SERVER_NET, flags: ACK | FIN, seed: 4 }),
      connection({ t: 0.1, client: '198.51.100.7', server: SERVER, sport: 40000, segments: 3 }),
        // the protected side's own connection: its SYN-ACK is ingress, answering a SYN seen leaving
        connection({ t: 0.3, client: SERVER, server: '198.51.100.9', sport: 50000, dport: 443 }),
        // IPv6, both ways: the engine reads the connection's key from the IPv6 addresses
        connection({ t: 0.5, client: '2001:db8:ff::7', server: '2001:db8::10', sport: 40001, segments: 2 }),
      ],
      { egress: true },
    );
    const reads = readsWhile(atp, traffic);
    const { components } = atp as unknown as { components: readonly AtpComponent[] };
    expect(components.map((c) => c.stage)).toEqual([SYN_CODE, OOS]);
    for (const c of components) expect(sorted(reads.get(c.stage) ?? [])).toEqual(sorted(c.reads));
    const egress = (atp as unknown as { egress: EgressTracking }).egress;
    // it reads the connection's key as the engine does, beyond that what it declares
    expect(sorted(reads.get(EGRESS) ?? []).filter((f) => !ENGINE_READS.includes(f as RecordField))).toEqual(sorted(egress.reads));
    expect(reads.get(ENGINE)?.size).toBeGreaterThan(0);
    expect(sorted(reads.get(ENGINE) ?? []).filter((f) => !ENGINE_READS.includes(f as RecordField))).toEqual([]);
  });
});
