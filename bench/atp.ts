// src/atp figures: packets per second through AdvancedTcpProtection.inspect() next to a trivial
// pass-through loop over the same prebuilt PacketRecords (so decoding is not measured), on the
// evidence scenarios: a spoofed SYN flood among real handshakes, and an ACK flood among
// established connections. Each timed run uses a fresh engine (the engine keeps state).
import { AdvancedTcpProtection, AtpDecision } from '../src/atp/index.js';
import { PacketRecord } from '../src/capture/record.js';
import type { Snapshot } from '../src/config/snapshot.js';
import { SERVER, SERVER_NET, rule, snapshot } from '../test/atp/helpers/config.js';
import { ACK, SYN, capture, clients, fill, flood, type Pkt } from '../test/atp/helpers/traffic.js';
import type { BenchRow, BenchSuite } from './types.js';

function records(packets: Pkt[]): PacketRecord[] {
  return packets.map((p, i) => fill(new PacketRecord(), p, i + 1));
}

function seconds(run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

function passThroughPps(recs: PacketRecord[]): number {
  let sink = 0;
  const s = median(
    [0, 1, 2, 3, 4].map(() =>
      seconds(() => {
        for (let i = 0; i < recs.length; i++) sink += recs[i].tcpFlags & 2;
      }),
    ),
  );
  if (sink < 0) throw new Error('unreachable');
  return recs.length / s;
}

function inspectPps(recs: PacketRecord[], config: Snapshot): number {
  const out = new AtpDecision();
  const s = median(
    [0, 1, 2, 3, 4].map(() => {
      const atp = AdvancedTcpProtection.fromSnapshot(config);
      return seconds(() => {
        for (let i = 0; i < recs.length; i++) atp.inspect(recs[i], out);
      });
    }),
  );
  return recs.length / s;
}

export const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const legit = clients({ start: 0, seconds: 40, perSecond: 20, server: SERVER, seed: 1 });
  const scenarios: [string, Pkt[]][] = [
    ['SYN flood among handshakes', capture([legit, flood({ start: 15, seconds: 20, pps: 10_000, dstNet: SERVER_NET, flags: SYN, seed: 2 })])],
    ['ACK flood among handshakes', capture([legit, flood({ start: 15, seconds: 20, pps: 10_000, dstNet: SERVER_NET, dport: 443, flags: ACK, seed: 3 })])],
  ];
  const configs: [string, Snapshot][] = [
    ['enabled', snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] })],
    ['monitoring', snapshot({ syn: [rule('monitoring')], oos: [rule('monitoring')] })],
  ];
  for (const [name, packets] of scenarios) {
    const recs = records(packets);
    const base = passThroughPps(recs);
    rows.push({ suite: 'atp', name: `pass-through loop, ${name}`, value: base, unit: 'packets/s', note: `${recs.length} prebuilt records, median of 5` });
    for (const [mode, config] of configs) {
      const pps = inspectPps(recs, config);
      rows.push({ suite: 'atp', name: `inspect (${mode}), ${name}`, value: pps, unit: 'packets/s', note: `${(1e9 / pps).toFixed(0)} ns/packet, fresh engine per run, median of 5` });
    }
  }
  return rows;
};
