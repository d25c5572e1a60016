// Wireshark as the judge of the synthetic captures: with checksum validation on, every IPv4 header,
// TCP, UDP, ICMP and ICMPv6 checksum must be good, no dissector may call a packet malformed or
// raise an error, and TCP analysis must find nothing odd in the legitimate sessions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateToFile, readLabels } from '../../../src/capture/synth/index.js';
import { decodeAll } from './capture.js';
import { runTool, tsharkColumns } from '../../helpers/tshark.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-synth-tshark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHECKSUMS = ['ip.checksum.status', 'tcp.checksum.status', 'udp.checksum.status', 'icmp.checksum.status', 'icmpv6.checksum.status'];
const EXPERT_ERROR = 8388608;

describe.each(['handshakes', 'syn-flood', 'ack-flood', 'mixed', 'geo'])('tshark on the %s scenario', (name) => {
  it('finds every checksum good, nothing malformed, no expert errors, and strict time order', async () => {
    const out = path.join(dir, `${name}.pcap`);
    await generateToFile(name, out, { packets: 2500, seed: 3 });
    const { rows, stderr } = tsharkColumns(out, ['frame.number', '_ws.malformed', '_ws.expert.severity', ...CHECKSUMS], { checksums: true });
    expect(stderr).toBe('');
    expect(rows.length).toBe(2500);
    for (const [frame, malformed, severity, ...checks] of rows) {
      expect({ frame, malformed }).toEqual({ frame, malformed: '' });
      for (const s of (severity ?? '').split(',').filter(Boolean)) expect(Number(s)).toBeLessThan(EXPERT_ERROR);
      const present = checks.filter((c) => c !== '');
      expect(present.length).toBeGreaterThanOrEqual(1);
      expect({ frame, present }).toEqual({ frame, present: present.map(() => '1') });
    }
    const info = runTool('capinfos', ['-o', '-M', out]);
    expect(info.status).toBe(0);
    expect(info.stdout).toMatch(/Strict time order:\s+True/);
  });
});

describe('tshark on legitimate TCP sessions', () => {
  it('sees one TCP stream per labelled flow and no retransmissions, lost segments or other analysis flags', async () => {
    const out = path.join(dir, 'sessions.pcap');
    const r = await generateToFile('handshakes', out, { packets: 3000, seed: 11 });
    const labels = (await readLabels(out))!;
    const { rows } = tsharkColumns(out, ['frame.number', 'tcp.stream', 'tcp.analysis.flags'], { checksums: true });
    const streams = new Map<string, Set<number | null>>();
    for (const [frame, stream, flags] of rows) {
      expect({ frame, flags }).toEqual({ frame, flags: '' });
      const set = streams.get(stream!) ?? new Set();
      set.add(labels.flow(Number(frame)));
      streams.set(stream!, set);
    }
    expect(streams.size).toBe(r.flows);
    for (const flows of streams.values()) expect(flows.size).toBe(1);
  });

  it('agrees with the project reader on addresses, ports, flags and timestamps of every frame', async () => {
    const out = path.join(dir, 'mixed-diff.pcap');
    await generateToFile('mixed', out, { packets: 1500, seed: 5 });
    const ours = await decodeAll(out);
    const { rows } = tsharkColumns(out, ['frame.time_epoch', 'ip.src', 'ipv6.src', 'ip.dst', 'ipv6.dst', 'tcp.srcport', 'udp.srcport', 'tcp.dstport', 'udp.dstport', 'tcp.flags', 'tcp.len'], { checksums: true });
    expect(rows.length).toBe(ours.length);
    const hex6 = (a: string): string => {
      const [head, tail] = a.split('::');
      const h = head ? head.split(':') : [];
      const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
      const words = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
      return words.map((w) => w.padStart(4, '0')).join('');
    };
    rows.forEach(([time, src4, src6, dst4, dst6, tsport, usport, tdport, udport, flags, tcpLen], i) => {
      const d = ours[i]!;
      expect(time).toBe(`${d.tsSec}.${String(d.tsNsec).padStart(9, '0')}`);
      expect(d.src).toBe(src4 || hex6(src6!));
      expect(d.dst).toBe(dst4 || hex6(dst6!));
      if (tsport || usport) expect([d.sport, d.dport]).toEqual([Number(tsport || usport), Number(tdport || udport)]);
      if (flags) {
        expect(d.flags).toBe(Number(flags));
        expect(d.payload).toBe(Number(tcpLen));
      }
    });
  });
});
