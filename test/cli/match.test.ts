// `edgesim match` as a user runs it, against tshark on the same capture: the frames an expression
// matches equal the frames the equivalent display filter shows. match decides packets as replay does
// (the firewall's fast path from the frame bytes, the decoder and evaluator for the rest), so this is
// also the fast path checked against Wireshark's dissectors. The captures are synthetic (no tunnels,
// where Wireshark would also match inner headers); ICMP errors are left out on tshark's side, since
// Wireshark matches the headers quoted inside them and the Rules language does not.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import { runCli } from '../helpers/cli.js';
import { tsharkColumns } from '../helpers/tshark.js';
import { tempDir } from '../helpers/temp-dir.js';

const captures: string[] = [];

beforeAll(async () => {
  const dir = tempDir('edgesim-match-');
  for (const scenario of ['mixed', 'syn-flood', 'handshakes']) {
    const file = path.join(dir, `${scenario}.pcap`);
    await generateToFile(scenario, file, { packets: 3000, seed: 11, labels: null });
    captures.push(file);
  }
});

/** [Rules-language expression, the equivalent Wireshark display filter] */
const PAIRS: Array<[string, string]> = [
  ['tcp.dstport == 80', 'tcp.dstport == 80'],
  ['tcp.dstport in { 22 80 443 }', 'tcp.dstport in { 22, 80, 443 }'],
  ['udp.srcport in { 53 123 } or udp.dstport == 53', 'udp.srcport in { 53, 123 } || udp.dstport == 53'],
  ['tcp.flags.syn and not tcp.flags.ack', 'tcp.flags.syn == 1 && tcp.flags.ack == 0'],
  ['ip.src in { 198.51.100.0/24 10.0.0.0/8 } and ip.proto == "tcp"', 'ip.src in { 198.51.100.0/24, 10.0.0.0/8 } && tcp'],
  ['ip.dst == 203.0.113.10 and tcp.dstport > 1024', 'ip.dst == 203.0.113.10 && tcp.dstport > 1024'],
  // the Rules language's ip.ttl and ip.len cover IPv6 too (hop limit; payload length + 40)
  ['ip.ttl < 64 and ip.proto == "udp"', '(ip.ttl < 64 || ipv6.hlim < 64) && udp'],
  ['ip.len > 1000', 'ip.len > 1000 || ipv6.plen > 960'],
];

function tsharkFrames(file: string, filter: string): number[] {
  return tsharkColumns(file, ['frame.number'], { filter: `(${filter}) && !icmp && !icmpv6` }).rows.map((r) => Number(r[0]));
}

describe('edgesim match', () => {
  it('matches the frames tshark shows for the equivalent display filter', () => {
    let matchedSomewhere = 0;
    for (const capture of captures) {
      for (const [expression, displayFilter] of PAIRS) {
        const r = runCli(['match', capture, expression]);
        expect(r.status, r.stderr).toBe(0);
        const frames = r.stdout.split('\n').filter(Boolean).map(Number);
        expect(frames, `${path.basename(capture)}: ${expression}`).toEqual(tsharkFrames(capture, displayFilter));
        if (frames.length > 0) matchedSomewhere++;
      }
    }
    // the comparison means something only if most expressions match packets somewhere
    expect(matchedSomewhere).toBeGreaterThan(PAIRS.length);
  });

  it('counts on worker threads what it prints on one (--count --jobs: the capture replayed in ranges)', () => {
    for (const capture of captures) {
      for (const [expression] of PAIRS.slice(0, 4)) {
        const frames = runCli(['match', capture, expression]).stdout.split('\n').filter(Boolean).length;
        const r = runCli(['match', capture, expression, '--count', '--jobs', '3']);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr).toBe('');
        expect(Number(r.stdout), `${path.basename(capture)}: ${expression}`).toBe(frames);
      }
    }
  });

  it('prints the frames on one thread, and says so when --jobs asks for more', () => {
    const [capture] = captures;
    const one = runCli(['match', capture, 'tcp.dstport == 80']);
    const r = runCli(['match', capture, 'tcp.dstport == 80', '--jobs', '2']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(one.stdout);
    expect(r.stderr).toBe('edgesim: warning: --jobs 2: the matched frames are printed in capture order, so it ran on one thread\n');
  });
});

