// The fast path against the reference path (decoder + evaluator) over every capture of the tcpdump
// corpus (many link types, VLANs, IPv6 extension headers, tunnels, truncated and malformed packets):
// per-packet NDJSON byte-identical and the same hit and decision counts per rule, with the rules
// read linearly and through the candidate index. The rules touch every field the fast path reads,
// in every kind of comparison; one ruleset also holds a rule the fast path cannot evaluate (a
// looked-up field), so packets that reach it fall back after their earlier matches were counted.
import { describe, expect, it } from 'vitest';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { type Rule, run } from './helpers.js';

const bad = new IpSetBuilder().addPrefix4(parseIPv4('10.0.0.0'), 8).addPrefix4(parseIPv4('192.168.0.0'), 16).addPrefix6(parseIPv6('2001:db8::')!, 32).build();
const lists = (name: string) => (name === 'bad' ? bad : undefined);

const FIELDS: Rule[] = [
  ['src-set', 'log', 'ip.src in {10.0.0.0/8 192.168.0.0/16 2001:db8::/32 fe80::/10}'],
  ['dst-eq', 'log', 'ip.dst == 192.168.1.1 or ip.dst == ::1 or ip.src != 10.0.0.1'],
  ['v6-ne', 'log', 'ip.dst != fe80::1 and ip.src >= 10.0.0.0 and ip.src <= 10.255.255.255'],
  ['v6-order', 'log', 'ip.dst > fe80:: or ip.src < 1.0.0.0'],
  ['proto', 'log', 'ip.proto == "tcp"'],
  ['proto-set', 'log', 'ip.proto in {"udp" "icmp" "ipv6-icmp"} or ip.proto matches "^g"'],
  ['len-ttl', 'log', 'ip.len > 100 and ip.ttl < 64'],
  ['hdr-opt', 'log', 'ip.hdr_len > 5 or ip.opt.type != 0'],
  ['syn', 'log', 'tcp.flags.syn and not tcp.flags.ack'],
  ['flag-bits', 'log', 'tcp.flags & 0x12 or tcp.flags.fin or tcp.flags.reset or tcp.flags.push or tcp.flags.urg or tcp.flags.ecn or tcp.flags.cwr'],
  ['udp-ports', 'log', 'udp.dstport in {53 123 5060 1900..2000} or udp.srcport == 53'],
  ['icmp', 'log', 'icmp.type == 8 or icmp.code != 0'],
  ['raw', 'log', 'tcp contains "HTTP" or udp contains 00:01 or icmp == 08:00 or ip > 45:00'],
  ['bit-slice', 'log', 'bit_slice(ip, 0, 4) == 4 and bit_slice(tcp, 104, 112) > 16'],
  ['sip', 'log', 'sip or udp.dstport == 5060'],
  ['list', 'log', 'ip.src in $bad xor ip.dst in $bad'],
  ['ports', 'log', 'tcp.dstport in {80 443 8080} or tcp.srcport in {1..1023}'],
  ['wild', 'log', 'tcp wildcard "*http*" or udp in {"abc" 00:35}'],
  ['telnet', 'block', 'tcp.dstport == 23'],
  ['skip-web', 'skip', 'tcp.srcport == 80 and ip.len < 1000'],
  ['dns', 'block', 'udp.dstport == 53 and ip.ttl > 1'],
  ['v6-block', 'block', 'ip.src in {2001:db8::/32}'],
];

const WITH_LOOKUP: Rule[] = [
  ['ping', 'block', 'icmp.type == 8'],
  ['ssh', 'log', 'tcp.dstport == 22'],
  ['web', 'skip', 'tcp.dstport in {80 443}'],
  ['country', 'log', 'ip.src.country == "US"'],
  ['big', 'block', 'ip.len > 1000'],
];

describe('fast path vs decoder + evaluator over the tcpdump corpus', () => {
  it('gives byte-identical per-packet NDJSON and the same rule counters for every file', async () => {
    let fast = 0;
    let packets = 0;
    const differ: string[] = [];
    for (const name of corpusFiles()) {
      const file = corpusPath(name);
      for (const rules of [FIELDS, WITH_LOOKUP]) {
        const reference = await run(file, rules, { lists, mode: 'reference' });
        for (const mode of ['linear', 'indexed'] as const) {
          const got = await run(file, rules, { lists, mode });
          fast += got.fast;
          if (got.ndjson !== reference.ndjson || got.error !== reference.error || got.hits.join() !== reference.hits.join() || got.decided.join() !== reference.decided.join()) {
            differ.push(`${name} (${rules === FIELDS ? 'fields' : 'lookup'}, ${mode})`);
          }
        }
        packets += reference.ndjson.split('\n').length - 1;
      }
    }
    expect(differ).toEqual([]);
    // the fast path really decided most packets, not just handed everything back
    console.log(`fast ${fast} of ${packets * 2}`);
    expect(packets).toBeGreaterThan(20_000);
    expect(fast).toBeGreaterThan(packets);
  }, 120_000);
});
