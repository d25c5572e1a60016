// Differential test of the translators against the real tools: on synthetic captures (mixed traffic
// and a SYN flood, IPv4 and IPv6), `tcpdump -r FILE -w OUT 'BPF'` and `tshark -r FILE -Y 'DF'` must
// select exactly the frames the Rules-language expression matches (the predicate `edgesim match`
// uses). tcpdump's selection is read back from the pcap it writes and told apart by timestamp and
// bytes; tshark's by frame number. Expressions that have no exact equivalent are refused with the
// reason, checked here too (BPF refuses what edgesim reads after IPv6 extension headers:
// extension-headers.test.ts shows why, on captures that have them).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import { compileRecordExpression } from '../../src/fields/compile.js';
import { toBpf } from '../../src/translate/bpf.js';
import { toDisplayFilter, TSHARK_FRAME_BY_FRAME } from '../../src/translate/display-filter.js';
import { Untranslatable } from '../../src/translate/walk.js';
import { keysOf, run } from './helpers.js';

const EXPRESSIONS = [
  'tcp.dstport == 80',
  'tcp.dstport in { 22 443 8000..8100 } and not tcp.flags.ack',
  'tcp.flags.syn and not tcp.flags.ack',
  'tcp.flags.fin or tcp.flags.reset',
  'udp.dstport != 53',
  'udp.srcport < 1024 or udp.dstport >= 60000',
  'ip.proto == "udp" and ip.ttl < 64',
  'ip.proto in { "icmp" "ipv6-icmp" } or icmp.type == 128',
  'ip.src in { 10.0.0.0/8 172.16.0.0/12 } or ip.dst == 203.0.113.10',
  'ip.dst in { 2001:db8:ffff::/48 } and tcp.dstport == 443',
  'ip.ttl > 60 xor tcp.dstport == 443',
  'not (ip.src in { 0.0.0.0/1 } and ip.ttl > 100)',
  'ip.dst in { 203.0.113.0/24 2001:db8:ffff::/48 } and ip.ttl <= 64',
];

let dir: string;
const captures: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-peers-'));
  for (const [scenario, packets] of [['mixed', 4000], ['syn-flood', 2000], ['handshakes', 2000]] as const) {
    const file = path.join(dir, `${scenario}.pcap`);
    await generateToFile(scenario, file, { packets, seed: 7, labels: null });
    captures.push(file);
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('translations select the same frames as edgesim', () => {
  for (const expr of EXPRESSIONS) {
    it(expr, async () => {
      const predicate = compileRecordExpression('rule', expr).predicate;
      // BPF is given only where libpcap reads what edgesim reads (extension-headers.test.ts)
      let bpf: string | null = null;
      try {
        bpf = toBpf(expr);
      } catch (err) {
        if (!(err instanceof Untranslatable)) throw err;
      }
      const df = toDisplayFilter(expr);
      let matchedSomewhere = 0;
      for (const file of captures) {
        const ours = await keysOf(file, predicate);
        matchedSomewhere += ours.frames.length;
        if (bpf !== null) {
          const out = path.join(dir, 'tcpdump-out.pcap');
          run('tcpdump', ['-r', file, '-w', out, bpf]);
          expect((await keysOf(out)).keys, `tcpdump '${bpf}' on ${path.basename(file)}`).toEqual(ours.keys);
        }
        const tshark = run('tshark', [...TSHARK_FRAME_BY_FRAME, '-r', file, '-Y', df, '-T', 'fields', '-e', 'frame.number']).split('\n').filter(Boolean).map(Number);
        expect(tshark, `tshark -Y '${df}' on ${path.basename(file)}`).toEqual(ours.frames);
      }
      // an expression that selects nothing anywhere would prove little
      expect(matchedSomewhere).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe('expressions with no exact equivalent are refused with the reason', () => {
  it.each([
    ['ip.src.country == "CN"', 'ip.src.country has no BPF equivalent (its value comes from a GeoIP lookup)', 'ip.src.country has no display-filter equivalent (its value comes from a GeoIP lookup)'],
    ['ip.dst.asnum == 13335', 'ip.dst.asnum has no BPF equivalent (its value comes from an ASN lookup)', 'ip.dst.asnum has no display-filter equivalent (its value comes from an ASN lookup)'],
    ['cf.colo.name == "fra01"', 'cf.colo.name has no BPF equivalent (its value comes from the ingress data center, which is not in the packet)', 'cf.colo.name has no display-filter equivalent (its value comes from the ingress data center, which is not in the packet)'],
    ['cf.colo.region == "WEUR"', 'cf.colo.region has no BPF equivalent (its value comes from the ingress region, which is not in the packet)', 'cf.colo.region has no display-filter equivalent (its value comes from the ingress region, which is not in the packet)'],
    ['ip.src in $bad', 'list $bad has no BPF equivalent (its contents live in the configuration)', 'list $bad has no display-filter equivalent (its contents live in the configuration)'],
    ['tcp.flags == 0x12', 'tcp.flags is not translated to BPF: on IPv6 edgesim reads it after the extension headers', "tcp.flags is not translated to a display filter (Wireshark's field holds 12 bits with NS and the reserved bits, edgesim's the flags byte)"],
    ['ip.len > 1000', 'ip.len is not translated to BPF: where a packet\'s length field is 0', 'ip.len is not translated to a display filter: where a packet\'s length field is 0'],
    ['ip.src in { 10.0.0.1..10.0.0.9 }', 'address ranges (a..b) have no BPF equivalent', 'address ranges (a..b) are not translated to a display filter'],
  ])('%s', (expr, bpfReason, dfReason) => {
    if (bpfReason === null) expect(() => toBpf(expr)).not.toThrow();
    else expect(() => toBpf(expr)).toThrow(bpfReason);
    expect(() => toDisplayFilter(expr)).toThrow(dfReason);
  });
});
