import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToFile, readLabels } from '../../../src/capture/synth/index.js';
import type { GenerateResult, Labels } from '../../../src/capture/synth/index.js';
import { decodeAll } from './capture.js';
import type { Decoded } from './capture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-synth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SYN = 0x02;
const RST = 0x04;
const ACK = 0x10;
const FIN = 0x01;
const PSH = 0x08;
const START = 1704067200;

interface Made {
  result: GenerateResult;
  frames: Decoded[];
  labels: Labels;
}

const made = new Map<string, Made>();
const SCENARIO_NAMES = ['handshakes', 'syn-flood', 'ack-flood', 'mixed', 'geo'];

beforeAll(async () => {
  for (const name of SCENARIO_NAMES) {
    const out = path.join(dir, `${name}.pcap`);
    const result = await generateToFile(name, out, { packets: 3000, seed: 42 });
    made.set(name, { result, frames: await decodeAll(out), labels: (await readLabels(out))! });
  }
});

function flowsOf(m: Made): Map<number, Decoded[]> {
  const flows = new Map<number, Decoded[]>();
  for (const f of m.frames) {
    const id = m.labels.flow(f.frame);
    if (id === null) continue;
    const list = flows.get(id) ?? [];
    list.push(f);
    flows.set(id, list);
  }
  return flows;
}

/**
 * Checks a TCP session packet by packet: SYN, SYN-ACK, ACK, request/response pairs (PSH-ACK,
 * client first), FIN-ACK both ways, ACK, with every seq/ack continuing the sender's last. `complete`:
 * the session must run to its last ACK (only a part's last flow may be cut by the packet budget).
 */
function checkSession(packets: Decoded[], complete: boolean): void {
  const client = `${packets[0]!.src}:${packets[0]!.sport}`;
  // expected [flags, from the client] of each packet, as a state machine driven by what comes
  const script: Array<[number, boolean]> = [[SYN, true], [SYN | ACK, false], [ACK, true]];
  let data = 0;
  for (let i = 3; i < packets.length; i++) {
    if (packets[i]!.flags === (PSH | ACK) && script.length === i) script.push([PSH | ACK, data++ % 2 === 0]);
  }
  expect(data % 2 === 0 || packets.length === script.length).toBe(true);
  script.push([FIN | ACK, true], [FIN | ACK, false], [ACK, true]);
  expect(packets.length).toBeLessThanOrEqual(script.length);
  if (complete) expect(packets.length).toBe(script.length);
  let next = { c: packets[0]!.seq, s: 0 };
  packets.forEach((p, i) => {
    const fromClient = `${p.src}:${p.sport}` === client;
    expect([p.flags, fromClient]).toEqual(script[i]);
    if (i === 1) next.s = p.seq;
    if (fromClient) {
      if (i > 0) expect([p.seq, p.ack]).toEqual([next.c, next.s]);
      next = { ...next, c: (next.c + p.payload + (p.flags & (FIN | SYN) ? 1 : 0)) >>> 0 };
    } else {
      expect([p.seq, p.ack]).toEqual([next.s, next.c]);
      next = { ...next, s: (next.s + p.payload + (p.flags & (FIN | SYN) ? 1 : 0)) >>> 0 };
    }
  });
}

describe.each(SCENARIO_NAMES)('scenario %s', (name) => {
  it('writes exactly the packets asked for, each decoding fully, in time order within the duration', () => {
    const m = made.get(name)!;
    expect(m.result.packets).toBe(3000);
    expect(m.frames.length).toBe(3000);
    let last = 0;
    for (const f of m.frames) {
      expect(f.note).toBe('');
      const t = (f.tsSec - START) * 1e6 + f.tsNsec / 1000;
      expect(t).toBeGreaterThanOrEqual(last);
      last = t;
    }
    expect(last).toBeLessThanOrEqual(60e6);
  });

  it('labels every frame, and the labels agree with the packets', () => {
    const m = made.get(name)!;
    expect(m.labels.frames).toBe(3000);
    const parts = new Map(m.result.spec.parts.map((p) => [p.name, p]));
    for (const f of m.frames) {
      const part = parts.get(m.labels.part(f.frame)!)!;
      expect(m.labels.label(f.frame)).toBe(part.label);
      const t = (f.tsSec - START) + f.tsNsec / 1e9;
      expect(t).toBeGreaterThanOrEqual(part.start - 1e-6);
      expect(t).toBeLessThanOrEqual(part.start + part.duration + 1e-6);
      if (part.kind === 'syn-flood') {
        expect(f.flags).toBe(SYN);
        expect(m.labels.flow(f.frame)).toBeNull();
      } else if (part.kind === 'ack-flood') {
        expect([ACK, RST, RST | ACK]).toContain(f.flags);
        expect(m.labels.flow(f.frame)).toBeNull();
      } else expect(m.labels.flow(f.frame)).not.toBeNull();
    }
  });

  it('keeps every packet of a labelled flow between the same two endpoints', () => {
    for (const packets of flowsOf(made.get(name)!).values()) {
      const ends = new Set(packets.map((p) => [`${p.src}:${p.sport}`, `${p.dst}:${p.dport}`].sort().join(' ')));
      expect(ends.size).toBe(1);
    }
  });

  it('plays each TCP session by the book: handshake, exchanges, close, with continuous sequence numbers', () => {
    const m = made.get(name)!;
    let sessions = 0;
    const flows = flowsOf(m);
    const lastOfPart = new Map<string, number>();
    for (const [id, packets] of flows) lastOfPart.set(m.labels.part(packets[0]!.frame)!, id);
    for (const [id, packets] of flows) {
      if (!packets[0]!.tcp) continue;
      sessions++;
      checkSession(packets, lastOfPart.get(m.labels.part(packets[0]!.frame)!) !== id);
    }
    if (name !== 'mixed') expect(sessions).toBeGreaterThan(5);
  });
});

describe('synthetic captures', () => {
  it('are byte-identical for the same seed, and differ for another', async () => {
    const a = path.join(dir, 'a.pcap');
    const b = path.join(dir, 'b.pcap');
    const c = path.join(dir, 'c.pcap');
    await generateToFile('mixed', a, { packets: 2000, seed: 7 });
    await generateToFile('mixed', b, { packets: 2000, seed: 7 });
    await generateToFile('mixed', c, { packets: 2000, seed: 8 });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(readFileSync(`${a}.labels.ndjson`).equals(readFileSync(`${b}.labels.ndjson`))).toBe(true);
    expect(readFileSync(a).equals(readFileSync(c))).toBe(false);
  });

  it('put the syn-flood scenario\'s attack on one server:port from many sources, among few legit packets', () => {
    const m = made.get('syn-flood')!;
    const attack = m.frames.filter((f) => m.labels.label(f.frame) === 'attack');
    expect(new Set(attack.map((f) => `${f.dst}:${f.dport}`))).toEqual(new Set(['203.0.113.10:80']));
    expect(new Set(attack.map((f) => f.src)).size).toBeGreaterThan(attack.length * 0.99);
    const legitShare = (m.frames.length - attack.length) / m.frames.length;
    expect(legitShare).toBeGreaterThanOrEqual(0.01);
    expect(legitShare).toBeLessThanOrEqual(0.05);
  });

  it('mix DNS, ICMP echo, UDP/443, IPv6 and attack traffic in the mixed scenario', () => {
    const m = made.get('mixed')!;
    const dns = m.frames.filter((f) => f.proto === 17 && (f.dport === 53 || f.sport === 53));
    expect(dns.length).toBeGreaterThan(0);
    expect(dns.every((f) => ['198.51.100.53', '20010db8005300000000000000000053'].includes(f.dport === 53 ? f.dst : f.src))).toBe(true);
    expect(new Set(m.frames.filter((f) => f.proto === 1 || f.proto === 58).map((f) => f.icmpType))).toEqual(new Set([8, 0, 128, 129]));
    expect(m.frames.some((f) => f.proto === 17 && f.dport === 443)).toBe(true);
    const v6 = m.frames.filter((f) => f.v === 6).length / m.frames.length;
    expect(v6).toBeGreaterThan(0.05);
    expect(v6).toBeLessThan(0.5);
    const oos = m.frames.filter((f) => m.labels.part(f.frame) === 'out-of-state');
    expect(oos.length).toBe(210);
    expect(oos.every((f) => f.flags === ACK && f.dport === 443)).toBe(true);
  });

  it('honour a JSON flow spec: sizes, windows, addresses and ports of each part', async () => {
    const out = path.join(dir, 'spec.pcap');
    const r = await generateToFile(
      {
        duration: 10,
        parts: [
          { name: 'clients', kind: 'handshake', flows: 20, exchanges: 2, sources: ['198.51.100.0/24'], servers: ['203.0.113.5'], ports: [8080] },
          { name: 'burst', kind: 'syn-flood', rate: 100, start: 4, duration: 2, sources: ['192.0.2.0/28'], servers: ['203.0.113.5'], ports: [25] },
        ],
      },
      out,
    );
    expect(r.parts.map((p) => p.packets)).toEqual([200, 200]);
    const frames = await decodeAll(out);
    const labels = (await readLabels(out))!;
    const burst = frames.filter((f) => labels.part(f.frame) === 'burst');
    expect(burst.length).toBe(200);
    for (const f of burst) {
      expect(f.src).toMatch(/^192\.0\.2\.([1-9]|1[0-4])$/);
      expect(f.dst).toBe('203.0.113.5');
      expect(f.dport).toBe(25);
      expect(f.tsSec - START).toBeGreaterThanOrEqual(4);
      expect(f.tsSec - START).toBeLessThan(6);
    }
    const clients = frames.filter((f) => labels.part(f.frame) === 'clients');
    expect(new Set(clients.map((f) => labels.flow(f.frame))).size).toBe(20);
    expect(clients.every((f) => f.src.startsWith('198.51.100.') || f.dst.startsWith('198.51.100.'))).toBe(true);
  });

  it('write no sidecar when asked not to, and a nanosecond pcap when asked', async () => {
    const out = path.join(dir, 'nolabels.pcap');
    const r = await generateToFile('syn-flood', out, { packets: 50, labels: null, nanosecond: true });
    expect(r.labels).toBeNull();
    expect(await readLabels(out)).toBeNull();
    expect(readFileSync(out).readUInt32LE(0)).toBe(0xa1b23c4d);
    expect((await decodeAll(out)).length).toBe(50);
  });
});
