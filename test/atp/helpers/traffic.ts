// Test traffic for ATP: packets as plain objects (time, addresses, ports, flags, sequence numbers,
// data center, ground-truth label and flow), generators for legitimate TCP connections and for
// floods, and a runner that feeds them through an engine with one reused PacketRecord, as the
// pipeline does, and keeps a copy of each decision.
import { AtpDecision, type AdvancedTcpProtection, type AtpLabels, type AtpReport } from '../../../src/atp/index.js';
import { PacketRecord, TcpFlag } from '../../../src/capture/record.js';
import { record } from '../../helpers/records.js';
import { verdictName } from '../../../src/verdict.js';

export const { SYN, ACK, FIN, RST, PSH } = TcpFlag;

export interface Pkt {
  t: number;
  src: string;
  dst: string;
  sport: number;
  dport: number;
  flags: number;
  seq: number;
  ack?: number;
  len?: number;
  colo?: string;
  region?: string;
  label?: 'legit' | 'attack';
  flow?: number;
  /** sent by the protected side (only replayed when a test asks for both directions) */
  egress?: boolean;
}

/** Deterministic PRNG (mulberry32). */
export class Rand {
  constructor(private s: number) {}
  u32(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let z = this.s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  }
  /** uniform in [0, 1) */
  next(): number {
    return this.u32() / 2 ** 32;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
}

export function ipText(v: number): string {
  return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
}

/** Fills `rec` with packet `p` as a decoder would (frame numbers are 1-based; times after 1,700,000,000 s). */
export function fill(rec: PacketRecord, p: Pkt, frame: number): PacketRecord {
  return record(
    { src: p.src, dst: p.dst, proto: 'tcp', sport: p.sport, dport: p.dport, flags: p.flags, seq: p.seq, ack: p.ack, payload: p.len, len: 40 + (p.len ?? 0), frame, time: p.t, epoch: 1_700_000_000, colo: p.colo, region: p.region },
    rec,
  );
}

export interface ConnectionSpec {
  t: number;
  client: string;
  server: string;
  sport: number;
  dport?: number;
  rtt?: number;
  /** client data segments after the handshake */
  segments?: number;
  close?: 'fin' | 'rst' | 'none';
  flow?: number;
  label?: 'legit' | 'attack';
  isn?: number;
  colo?: string;
  region?: string;
}

/**
 * A complete client connection to a protected server: SYN, handshake ACK, data segments (each
 * acknowledging a server reply), then FIN and the last ACK (or an RST). Packets from the server are
 * marked egress.
 */
export function connection(c: ConnectionSpec): Pkt[] {
  const rtt = c.rtt ?? 0.04;
  const isn = (c.isn ?? 1000) >>> 0;
  const sisn = (isn ^ 0x5a5a5a5a) >>> 0;
  const base = { src: c.client, dst: c.server, sport: c.sport, dport: c.dport ?? 80, label: c.label ?? ('legit' as const), flow: c.flow, colo: c.colo, region: c.region };
  const back = { src: c.server, dst: c.client, sport: c.dport ?? 80, dport: c.sport, label: c.label ?? ('legit' as const), flow: c.flow, colo: c.colo, region: c.region, egress: true };
  const out: Pkt[] = [];
  let t = c.t;
  out.push({ ...base, t, flags: SYN, seq: isn });
  out.push({ ...back, t: t + rtt / 2, flags: SYN | ACK, seq: sisn, ack: isn + 1 });
  t += rtt;
  let cseq = isn + 1;
  let sseq = sisn + 1;
  out.push({ ...base, t, flags: ACK, seq: cseq, ack: sseq });
  for (let k = 0; k < (c.segments ?? 2); k++) {
    t += 0.001;
    out.push({ ...base, t, flags: PSH | ACK, seq: cseq, ack: sseq, len: 200 });
    cseq += 200;
    out.push({ ...back, t: t + rtt / 2, flags: PSH | ACK, seq: sseq, ack: cseq, len: 1000 });
    sseq += 1000;
    t += rtt;
    out.push({ ...base, t, flags: ACK, seq: cseq, ack: sseq });
  }
  const close = c.close ?? 'fin';
  if (close === 'fin') {
    t += 0.001;
    out.push({ ...base, t, flags: FIN | ACK, seq: cseq, ack: sseq });
    cseq += 1;
    out.push({ ...back, t: t + rtt / 2, flags: FIN | ACK, seq: sseq, ack: cseq });
    sseq += 1;
    t += rtt;
    out.push({ ...base, t, flags: ACK, seq: cseq, ack: sseq });
  } else if (close === 'rst') {
    t += 0.001;
    out.push({ ...base, t, flags: RST | ACK, seq: cseq, ack: sseq });
  }
  return out.map((p) => ({ ...p, seq: p.seq >>> 0, ack: (p.ack ?? 0) >>> 0 }));
}

export interface FloodSpec {
  start: number;
  seconds: number;
  pps: number;
  /** destination addresses: a /24's first three octets, e.g. '203.0.113' */
  dstNet: string;
  dport?: number;
  flags: number;
  seed: number;
  /** a fixed source instead of random spoofed ones */
  src?: string;
  colo?: string;
  region?: string;
}

/** A randomised flood: spoofed sources and ports, random sequence numbers, evenly spaced packets. */
export function flood(f: FloodSpec): Pkt[] {
  const r = new Rand(f.seed);
  const n = Math.round(f.seconds * f.pps);
  const out: Pkt[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      t: f.start + i / f.pps,
      src: f.src ?? ipText(((r.int(1, 223) << 24) | (r.u32() & 0xffffff)) >>> 0),
      dst: `${f.dstNet}.${r.int(1, 254)}`,
      sport: r.int(1024, 65535),
      dport: f.dport ?? 80,
      flags: f.flags,
      seq: r.u32(),
      ack: f.flags & ACK ? r.u32() : 0,
      label: 'attack',
      colo: f.colo,
      region: f.region,
    });
  }
  return out;
}

/** Legitimate clients opening `perSecond` connections a second from `start` for `seconds`. */
export function clients(opts: { start: number; seconds: number; perSecond: number; server: string; seed: number; firstFlow?: number; colo?: string; region?: string; close?: 'fin' | 'rst' | 'none' }): Pkt[] {
  const r = new Rand(opts.seed);
  const n = Math.round(opts.seconds * opts.perSecond);
  const out: Pkt[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      ...connection({
        t: opts.start + i / opts.perSecond + r.next() * 0.001,
        client: `198.18.${r.int(0, 255)}.${r.int(1, 254)}`,
        server: opts.server,
        sport: r.int(1024, 65535),
        rtt: 0.01 + r.next() * 0.2,
        isn: r.u32(),
        segments: r.int(1, 4),
        flow: (opts.firstFlow ?? 0) + i,
        colo: opts.colo,
        region: opts.region,
        close: opts.close,
      }),
    );
  }
  return out;
}

/** Packets in time order (stable), without the protected side's packets unless asked. */
export function capture(parts: Pkt[][], opts: { egress?: boolean } = {}): Pkt[] {
  return parts
    .flat()
    .filter((p) => opts.egress === true || p.egress !== true)
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.t - b.p.t || a.i - b.i)
    .map((x) => x.p);
}

export interface Seen {
  verdict: 'pass' | 'drop';
  stage: string | null;
  reason: string | null;
  monitor: string | null;
  mode: string;
  protectedPacket: boolean;
  undecided: boolean;
}

export interface Run {
  seen: Seen[];
  report: AtpReport;
  labels: AtpLabels;
}

/** Feeds the packets (frames 1..n) through the engine and returns each decision and the labelled report. */
export function run(engine: AdvancedTcpProtection, packets: Pkt[]): Run {
  const rec = new PacketRecord();
  const out = new AtpDecision();
  const seen: Seen[] = [];
  packets.forEach((p, i) => {
    engine.inspect(fill(rec, p, i + 1), out);
    seen.push({
      verdict: verdictName(out.drop),
      stage: out.stage,
      reason: out.reason,
      monitor: out.monitor === null ? null : `${out.monitor.stage}:${out.monitor.reason}`,
      mode: out.mode,
      protectedPacket: out.protectedPacket,
      undecided: out.undecided,
    });
  });
  const labels: AtpLabels = {
    label: (frame) => packets[frame - 1]?.label ?? null,
    flow: (frame) => packets[frame - 1]?.flow ?? null,
  };
  return { seen, report: engine.report(labels), labels };
}
