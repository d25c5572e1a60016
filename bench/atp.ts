// src/atp figures: packets per second through AdvancedTcpProtection.inspect() next to a trivial
// pass-through loop over the same packets, decoded beforehand (so decoding is not measured), on the
// evidence scenarios: a spoofed SYN flood among real handshakes, and an ACK flood among
// established connections. Each timed run uses a fresh engine (the engine keeps state).
// Then the replay question: a synthetic SYN-flood capture read from disk through the firewall
// alone, and through ATP then the firewall, in the same run.
// And what protection costs as users see it: the 1M-packet `mixed` capture of bench/replay.ts replayed
// by whole `edgesim replay` processes with protection on and off, the difference in CPU time divided
// by the packets sent to a protected prefix; beside it the same difference in process, and ATP's own
// share (a bare read of the capture with and without inspect()), and the floor under it: the
// connection table alone, looked up for every protected packet and given an entry on a miss; what
// inspect() costs above that floor is what the components, their modes and meters cost.
import { spawnSync } from 'node:child_process';
import { accessSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectionTimeouts } from '../src/atp/atp-configuration.js';
import { FlowTable, State } from '../src/atp/flow-table.js';
import { AdvancedTcpProtection, AtpDecision, DEFAULT_ATP_OPTIONS, ProtectedSpace } from '../src/atp/index.js';
import { readCapture } from '../src/capture/reader.js';
import { Has, PacketRecord, TcpFlag } from '../src/capture/record.js';
import { generateToFile } from '../src/capture/synth/index.js';
import type { Ruleset, Snapshot } from '../src/config/snapshot.js';
import { Firewall, FirewallResult } from '../src/firewall/firewall.js';
import { replayFile } from '../src/sim/replay.js';
import { SERVER, SERVER_NET, rule, snapshot } from '../test/atp/helpers/config.js';
import { ACK, SYN, capture, clients, fill, flood, type Pkt } from '../test/atp/helpers/traffic.js';
import { cpuSeconds as timed, median } from './cpu-time.js';
import type { BenchRow, BenchSuite } from './types.js';

/**
 * The scenario's packets as columns of typed arrays, loaded one at a time into a single reused
 * record: 200,000 prebuilt PacketRecords (each with its IPv6 word arrays) made every collection the
 * engine's table allocations set off walk a heap of 600,000 objects, which the timings then measured
 * (a monitoring run came out at four times an enabled one).
 */
class RecordTape {
  readonly length: number;
  private readonly frame: Uint32Array;
  private readonly sec: Float64Array;
  private readonly nsec: Uint32Array;
  private readonly present: Uint32Array;
  private readonly version: Uint8Array;
  private readonly v4: Uint32Array;
  private readonly v6: Uint32Array;
  private readonly ports: Uint16Array;
  private readonly flags: Uint8Array;
  private readonly seqs: Uint32Array;
  private readonly payload: Uint32Array;

  constructor(packets: Pkt[]) {
    const n = (this.length = packets.length);
    this.frame = new Uint32Array(n);
    this.sec = new Float64Array(n);
    this.nsec = new Uint32Array(n);
    this.present = new Uint32Array(n);
    this.version = new Uint8Array(n);
    this.v4 = new Uint32Array(2 * n);
    this.v6 = new Uint32Array(8 * n);
    this.ports = new Uint16Array(2 * n);
    this.flags = new Uint8Array(n);
    this.seqs = new Uint32Array(2 * n);
    this.payload = new Uint32Array(n);
    const rec = new PacketRecord();
    packets.forEach((p, i) => {
      fill(rec, p, i + 1);
      if (rec.coloName.length > 0 || rec.coloRegion.length > 0) throw new Error('RecordTape keeps no data-center fields');
      this.frame[i] = rec.frame;
      this.sec[i] = rec.tsSec;
      this.nsec[i] = rec.tsNsec;
      this.present[i] = rec.present;
      this.version[i] = rec.ipVersion;
      this.v4[2 * i] = rec.src4;
      this.v4[2 * i + 1] = rec.dst4;
      this.v6.set(rec.src6, 8 * i);
      this.v6.set(rec.dst6, 8 * i + 4);
      this.ports[2 * i] = rec.srcPort;
      this.ports[2 * i + 1] = rec.dstPort;
      this.flags[i] = rec.tcpFlags;
      this.seqs[2 * i] = rec.tcpSeq;
      this.seqs[2 * i + 1] = rec.tcpAck;
      this.payload[i] = rec.payloadLen;
    });
  }

  /** Puts packet i in `rec` (the fields ATP reads). */
  load(rec: PacketRecord, i: number): void {
    rec.frame = this.frame[i];
    rec.tsSec = this.sec[i];
    rec.tsNsec = this.nsec[i];
    rec.present = this.present[i];
    rec.ipVersion = this.version[i];
    rec.src4 = this.v4[2 * i];
    rec.dst4 = this.v4[2 * i + 1];
    for (let w = 0; w < 4; w++) {
      rec.src6[w] = this.v6[8 * i + w];
      rec.dst6[w] = this.v6[8 * i + 4 + w];
    }
    rec.srcPort = this.ports[2 * i];
    rec.dstPort = this.ports[2 * i + 1];
    rec.tcpFlags = this.flags[i];
    rec.tcpSeq = this.seqs[2 * i];
    rec.tcpAck = this.seqs[2 * i + 1];
    rec.payloadLen = this.payload[i];
  }
}

function seconds(run: () => void): number {
  const c0 = process.cpuUsage();
  run();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}


function passThroughPps(tape: RecordTape): number {
  const rec = new PacketRecord();
  let sink = 0;
  const s = median(
    [0, 1, 2, 3, 4].map(() =>
      seconds(() => {
        for (let i = 0; i < tape.length; i++) {
          tape.load(rec, i);
          sink += rec.tcpFlags & 2;
        }
      }),
    ),
  );
  if (sink < 0) throw new Error('unreachable');
  return tape.length / s;
}

function inspectPps(tape: RecordTape, config: Snapshot): number {
  const rec = new PacketRecord();
  const out = new AtpDecision();
  const s = median(
    [0, 1, 2, 3, 4].map(() => {
      const atp = AdvancedTcpProtection.fromSnapshot(config);
      return seconds(() => {
        for (let i = 0; i < tape.length; i++) {
          tape.load(rec, i);
          atp.inspect(rec, out);
        }
      });
    }),
  );
  return tape.length / s;
}

const USER_PACKETS = 1_000_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** bench/replay.ts's 1M-packet `mixed` capture, made once in the temporary folder (the same file, shared by both suites). */
async function mixedCapture(): Promise<string> {
  const file = path.join(tmpdir(), `edgesim-bench-mixed-${USER_PACKETS}.pcap`);
  if (!existsSync(file)) await generateToFile('mixed', file, { packets: USER_PACKETS, seed: 1, labels: null });
  return file;
}

/** One whole `edgesim replay` process: its CPU seconds (user + system, GNU time) and its JSON report. */
function replayProcess(capture: string, config: string): { seconds: number; protectedPackets: number } {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, path.join(root, 'bin/edgesim.js'), 'replay', capture, '--config', config, '--format', 'json', '--no-labels', '--no-progress'], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (r.status !== 0) throw new Error(`edgesim replay failed: ${r.stderr}`);
  const [user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number];
  const report = JSON.parse(r.stdout) as { atp: { packets: { protected: number } } | null };
  return { seconds: user + system, protectedPackets: report.atp?.packets.protected ?? 0 };
}

/**
 * Protection's cost per protected packet: whole processes (as users see it) where GNU time is
 * there, in process, and ATP's inspect() alone; on and off taken in turns, medians of CPU time.
 */
async function protectionCostRows(): Promise<BenchRow[]> {
  const capture = await mixedCapture();
  const prefixes = [{ prefix: '203.0.113.0/24' }, { prefix: '2001:db8:ffff::/48' }];
  const on: Snapshot = { ...snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] }), prefixes, rulesets: [RULESET] };
  const off: Snapshot = { ...on, tcp_protection_status: { enabled: false } };
  const rows: BenchRow[] = [];
  const note = (runs: number) => `${USER_PACKETS.toLocaleString('en-US')}-packet mixed capture, on and off in turns, median of ${runs}, CPU time, Node ${process.version}`;
  let protectedPackets = 0;
  let hasTime = true;
  try {
    accessSync('/usr/bin/time');
  } catch {
    hasTime = false;
  }
  if (hasTime) {
    const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-bench-atp-'));
    try {
      const files = [off, on].map((snap, i) => {
        const file = path.join(dir, `${i}.json`);
        writeFileSync(file, JSON.stringify(snap));
        return file;
      });
      const times: [number[], number[]] = [[], []];
      for (let r = 0; r < 5; r++) {
        times[0].push(replayProcess(capture, files[0]!).seconds);
        const run = replayProcess(capture, files[1]!);
        times[1].push(run.seconds);
        protectedPackets = run.protectedPackets;
      }
      rows.push({ suite: 'atp', name: 'protection on, per protected packet (whole edgesim replay)', value: ((median(times[1]) - median(times[0])) / protectedPackets) * 1e9, unit: 'ns', note: `${note(5)}; off ${median(times[0]).toFixed(3)} s, on ${median(times[1]).toFixed(3)} s; target <= 150 ns` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const inProcess: [number[], number[]] = [[], []];
  const inspect: [number[], number[]] = [[], []];
  const table: number[] = [];
  const IP_TCP = Has.IP | Has.TCP;
  for (let r = 0; r < 5; r++) {
    inProcess[0].push(await timed(() => replayFile(capture, off, { useLabels: false })));
    inProcess[1].push(
      await timed(async () => {
        protectedPackets = (await replayFile(capture, on, { useLabels: false })).report.atp!.packets.protected;
      }),
    );
    inspect[0].push(await timed(() => readCapture(capture, () => {})));
    const atp = AdvancedTcpProtection.fromSnapshot(on);
    const out = new AtpDecision();
    inspect[1].push(await timed(() => readCapture(capture, (rec) => atp.inspect(rec, out))));
    const space = new ProtectedSpace(on.prefixes, on.allowlist);
    const flows = new FlowTable(DEFAULT_ATP_OPTIONS.maxFlows, connectionTimeouts(DEFAULT_ATP_OPTIONS));
    const t0 = atp.report().captureStart!;
    table.push(
      await timed(() =>
        readCapture(capture, (rec) => {
          if ((rec.present & IP_TCP) !== IP_TCP || !space.protectsDst(rec)) return;
          const t = rec.tsSec + rec.tsNsec / 1e9 - t0;
          flows.setKey(rec, true);
          const e = flows.find(t);
          if (e >= 0) flows.setLastSeen(e, t);
          else flows.insert(t, (rec.tcpFlags & TcpFlag.SYN) !== 0 ? State.CHALLENGED : State.OPEN);
        }),
      ),
    );
  }
  const perProtected = ([a, b]: [number[], number[]]) => ((median(b) - median(a)) / protectedPackets) * 1e9;
  rows.push({ suite: 'atp', name: 'protection on, per protected packet (replay in process)', value: perProtected(inProcess), unit: 'ns', note: `${note(5)}; ${protectedPackets.toLocaleString('en-US')} protected packets` });
  rows.push({ suite: 'atp', name: 'ATP inspect() alone, per protected packet (bare read)', value: perProtected(inspect), unit: 'ns', note: `same capture read with and without inspect(), ${note(5)}` });
  rows.push({ suite: 'atp', name: 'connection table alone, per protected packet (the floor)', value: perProtected([inspect[0], table]), unit: 'ns', note: `find, and insert on a miss (SYN: challenged), for each protected packet, no component logic, ${note(5)}` });
  rows.push({ suite: 'atp', name: 'ATP inspect() above the connection table, per protected packet', value: perProtected([table, inspect[1]]), unit: 'ns', note: `inspect() alone less the connection table alone: the components, their modes, meters and counters, ${note(5)}` });
  return rows;
}

const RULESET: Ruleset = {
  name: 'bench',
  kind: 'root',
  phase: 'edge_transit',
  rules: [
    { action: 'block', expression: 'ip.src in { 192.0.2.0/24 }' },
    { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'ip.dst in { 203.0.113.0/24 } and tcp.dstport in { 80 443 }' },
    { action: 'block', expression: 'tcp.flags.syn and tcp.dstport in { 22 3389 }' },
    { action: 'block', expression: 'udp.dstport == 53 and not ip.dst in { 198.51.100.53 }' },
    { action: 'block', expression: 'ip.proto == "icmp" and ip.len > 1000' },
  ],
};

async function replayRows(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-bench-atp-'));
  try {
    const capture = path.join(dir, 'syn-flood.pcap');
    await generateToFile('syn-flood', capture, { packets: 300_000, duration: 90, seed: 5 });
    const firewall = Firewall.compile([RULESET]);
    const result = new FirewallResult(firewall.newCounts());
    const out = new AtpDecision();
    const config = snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] });
    const firewallOnly = () => timed(() => readCapture(capture, (rec) => firewall.evaluate(rec, result)));
    const withAtp = () => {
      const atp = AdvancedTcpProtection.fromSnapshot({ ...config, prefixes: [{ prefix: '203.0.113.0/24' }, { prefix: '2001:db8:ffff::/48' }] });
      return timed(() =>
        readCapture(capture, (rec) => {
          atp.inspect(rec, out);
          if (!out.drop) firewall.evaluate(rec, result);
        }),
      );
    };
    const fw: number[] = [];
    const both: number[] = [];
    for (let r = 0; r < 5; r++) {
      fw.push(await firewallOnly());
      both.push(await withAtp());
    }
    const fwPps = 300_000 / median(fw);
    const bothPps = 300_000 / median(both);
    // the same through the whole replay pipeline (summary, labels), as `edgesim replay` runs it
    const full = { fw: [] as number[], both: [] as number[] };
    const atpSnapshot = { ...config, prefixes: [{ prefix: '203.0.113.0/24' }, { prefix: '2001:db8:ffff::/48' }], rulesets: [RULESET] };
    for (let r = 0; r < 3; r++) {
      full.fw.push(await timed(() => replayFile(capture, { rulesets: [RULESET] })));
      full.both.push(await timed(() => replayFile(capture, atpSnapshot)));
    }
    return [
      { suite: 'atp', name: 'replay from disk, firewall only (syn-flood scenario)', value: fwPps, unit: 'packets/s', note: '300,000-packet synthetic pcap, 5 rules, median of 5, CPU time' },
      { suite: 'atp', name: 'replay from disk, ATP (enabled) then firewall', value: bothPps, unit: 'packets/s', note: 'same capture and rules, runs interleaved' },
      { suite: 'atp', name: 'ATP cost relative to a bare read + firewall loop', value: fwPps / bothPps, unit: 'x', note: 'the strictest comparison: nothing else is done per packet' },
      { suite: 'atp', name: 'replay pipeline, firewall only (syn-flood scenario)', value: 300_000 / median(full.fw), unit: 'packets/s', note: 'src/sim replay(), median of 3, CPU time' },
      { suite: 'atp', name: 'replay pipeline, ATP (enabled) and firewall', value: 300_000 / median(full.both), unit: 'packets/s', note: 'same capture, runs interleaved' },
      { suite: 'atp', name: 'replay slowdown with ATP on', value: median(full.both) / median(full.fw), unit: 'x', note: 'target: at most 2' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


export const suite: BenchSuite = async () => {
  // the replay first, while the heap is as small as in a real replay; protection's cost per protected packet next
  const rows: BenchRow[] = [...(await replayRows()), ...(await protectionCostRows())];
  const legit = clients({ start: 0, seconds: 40, perSecond: 20, server: SERVER, seed: 1 });
  // each scenario's packets are made when its turn comes and kept only as a tape while it is timed
  const scenarios: Array<[string, () => Pkt[]]> = [
    ['SYN flood among handshakes', () => capture([legit, flood({ start: 15, seconds: 20, pps: 10_000, dstNet: SERVER_NET, flags: SYN, seed: 2 })])],
    ['ACK flood among handshakes', () => capture([legit, flood({ start: 15, seconds: 20, pps: 10_000, dstNet: SERVER_NET, dport: 443, flags: ACK, seed: 3 })])],
  ];
  const configs: [string, Snapshot][] = [
    ['enabled', snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] })],
    ['monitoring', snapshot({ syn: [rule('monitoring')], oos: [rule('monitoring')] })],
  ];
  for (const [name, packets] of scenarios) {
    const tape = new RecordTape(packets());
    const base = passThroughPps(tape);
    rows.push({ suite: 'atp', name: `pass-through loop, ${name}`, value: base, unit: 'packets/s', note: `${tape.length} packets loaded one at a time into one record, median of 5, CPU time` });
    for (const [mode, config] of configs) {
      const pps = inspectPps(tape, config);
      rows.push({ suite: 'atp', name: `inspect (${mode}), ${name}`, value: pps, unit: 'packets/s', note: `${(1e9 / pps).toFixed(0)} ns/packet, fresh engine per run, median of 5, CPU time` });
    }
  }
  return rows;
};
