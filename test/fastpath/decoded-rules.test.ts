// A rule whose condition the fast path does not write (here: it is compiled without the list the rule
// reads) is read on the frame's decoded record by the firewall's own predicate, and the frame stays
// on the fast path: the rules before and after it are tested from the bytes, no hit is undone, a
// frame decided before that rule is not decoded, and the engine counts name the rule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ascii, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from '../capture/helpers/build.js';
import { lists, type Rule, run } from './helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-fast-decoded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULES: Rule[] = [
  ['web', 'log', 'tcp.dstport == 80'],
  ['telnet', 'block', 'tcp.dstport == 23'],
  ['bad-syn', 'log', 'ip.src in $bad and tcp.flags.syn'],
  ['bad-dns', 'block', 'udp.dstport == 53 and ip.dst in $bad'],
  ['v6-web', 'block', 'ip.src in {2001:db8::/32} and tcp.dstport == 80'],
];

const FRAMES = [
  ethernet(0x0800, ipv4({ src: '10.1.2.3', dst: '203.0.113.1', proto: 6 }, tcp(40000, 80, 0x02, ascii('GET /')))),
  ethernet(0x0800, ipv4({ src: '10.1.2.3', dst: '203.0.113.1', proto: 6 }, tcp(40000, 23, 0x02))),
  ethernet(0x0800, ipv4({ src: '203.0.113.9', dst: '192.168.1.1', proto: 17 }, udp(5353, 53, ascii('q')))),
  ethernet(0x86dd, ipv6({ src: '2001:db8::1', dst: '2001:db8::2', next: 6 }, tcp(40000, 80, 0x12))),
  ethernet(0x0800, ipv4({ src: '172.16.0.1', dst: '10.9.9.9', proto: 6 }, tcp(40000, 443, 0x10))),
];

describe('rules the fast path does not write', () => {
  it('are read on the decoded frame, which the fast path decides as the decoder + evaluator do', async () => {
    const file = path.join(dir, 'frames.pcap');
    writeFileSync(file, pcapFile({}, FRAMES.map((data, i) => ({ sec: 1 + i, frac: 0, data }))));
    const reference = await run(file, RULES, { lists, mode: 'reference' });
    for (const mode of ['none', 'classifier', 'keys'] as const) {
      const fast = await run(file, RULES, { lists, fastLists: () => undefined, mode });
      expect(fast.ndjson).toBe(reference.ndjson);
      expect(fast.hits).toEqual(reference.hits);
      expect(fast.decided).toEqual(reference.decided);
      expect(fast.fast).toBe(FRAMES.length);
      // every frame but the telnet one, decided before them, reaches the rules on $bad: decoded once, read for each
      // (bad-dns only by the DNS frame when rules are picked by the ports they require)
      expect(fast.decoded).toBe(FRAMES.length - 1);
      const [syn, dns] = ['rule bad-syn: field ip.src: list $bad not compiled', 'rule bad-dns: field ip.dst: list $bad not compiled'];
      expect(fast.decodedReasons).toEqual(mode === 'none' ? [syn, dns, syn, dns, syn, dns, syn, dns] : [syn, syn, dns, syn, syn]);
    }
  });
});
