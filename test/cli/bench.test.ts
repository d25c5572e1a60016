// `edgesim bench` and `edgesim explain --bpf/--display-filter` as a user runs them: the JSON report's
// counts against `edgesim match` on the same capture, the shares adding up to the firewall's time,
// tshark run beside a ruleset that translates (tcpdump only where BPF can follow what edgesim reads), --save/--compare and --against exiting 1
// on a slowdown (and --against not on the same configuration),
// the rules' counts equal to a replay's hits where protection drops packets, memory and time that do
// not grow as the capture shrinks (whole-process figures), one line for an empty capture, and the
// explain flags printing a translation or the reason there is none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runCliMeasured } from '../helpers/measured-cli.js';
import { writeSlowerDemo } from '../helpers/slower-demo.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CAPTURE = 'pcaps/mixed.pcap';
const RULES = [
  { ref: 'web', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 80 443 }' },
  { ref: 'off', action: 'block', enabled: false, expression: 'ip.ttl > 0' },
  { ref: 'dns', action: 'block', expression: 'udp.dstport == 53' },
  { ref: 'ssh', action: 'log', expression: 'tcp.dstport == 22' },
  { ref: 'never', action: 'block', expression: 'tcp.dstport == 1' },
];
const snapshot = path.join(dir, 'snap.json');
writeFileSync(snapshot, JSON.stringify({ rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: RULES }] }));

function matchCount(expression: string): number {
  const r = runCli(['match', CAPTURE, expression, '--count']);
  expect(r.status, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe('edgesim bench', () => {
  const r = runCli(['bench', CAPTURE, '--config', snapshot, '--runs', '5', '--min-time', '10', '--json', '--save', path.join(dir, 'saved.json')]);
  const report = JSON.parse(r.stdout);

  it('counts evaluations and matches exactly, as edgesim match sees the capture', () => {
    expect(r.status, r.stderr).toBe(0);
    expect(report.packets).toBe(matchCount('ip.ttl >= 0 or not ip.ttl >= 0'));
    // frames without IP pass the path uninspected: the firewall sees the IP packets
    const packets = matchCount('ip.ttl >= 0');
    expect(report.firewall.packets).toBe(packets);
    const byRef = Object.fromEntries(report.rules.map((x: { rule: string }) => [x.rule, x]));
    expect(byRef.web.evaluations).toBe(packets);
    expect(byRef.web.matches).toBe(matchCount('tcp.dstport in { 80 443 }'));
    expect(byRef.off).toMatchObject({ evaluations: 0, matches: 0, ns_total: 0 });
    expect(byRef.dns.evaluations).toBe(packets - byRef.web.matches);
    expect(byRef.dns.matches).toBe(matchCount('udp.dstport == 53'));
    expect(byRef.ssh.evaluations).toBe(packets - byRef.web.matches - byRef.dns.matches);
    expect(byRef.never.matches).toBe(0);
    expect(report.never_hit).toEqual(['never']);
    expect(report.rules.map((x: { rule: string }) => x.rule)).toEqual(RULES.map((x) => x.ref));
  });

  it("gives throughput with its spread and shares that add up to the firewall's time", () => {
    expect(report.packets_per_second).toBeGreaterThan(0);
    expect(report.ns_per_packet * report.packets_per_second).toBeCloseTo(1e9, -3);
    expect(report.whole_path.packets_per_second_min).toBeLessThanOrEqual(report.whole_path.packets_per_second_max);
    const shares = report.rules.reduce((s: number, x: { share: number }) => s + x.share, 0);
    expect(shares).toBeCloseTo(1, 6);
    expect(report.peak_rss_bytes).toBeGreaterThan(1e6);
  });

  it('runs tshark on the same capture when the ruleset translates, and says why tcpdump cannot (ports after IPv6 extension headers)', () => {
    const [tcpdump, tshark] = report.peers as Array<{ tool: string; skipped: string | null; packets_per_second: number | null }>;
    expect(tcpdump!.tool).toBe('tcpdump');
    expect(tcpdump!.skipped).toMatch(/^the ruleset does not translate: tcp\.dstport is not translated to BPF: on IPv6 edgesim reads it after the extension headers/);
    expect(tshark!.tool).toBe('tshark');
    expect(tshark!.skipped).toBeNull();
    expect(tshark!.packets_per_second).toBeGreaterThan(0);
    expect(report.from_file_packets_per_second).toBeGreaterThan(0);
  });

  it('exits 1 with --compare when a row is slower than the threshold, 0 when not', () => {
    const saved = JSON.parse(readFileSync(path.join(dir, 'saved.json'), 'utf8'));
    expect(saved.version).toBe(2);
    type Saved = { better: string; value: number; processes: number[] };
    for (const f of saved.figures as Saved[]) expect(f.processes).toHaveLength(5);
    const times = (f: Saved, k: number) => ({ ...f, value: f.value * k, processes: f.processes.map((v) => v * k) });
    writeFileSync(path.join(dir, 'faster.json'), JSON.stringify({ ...saved, figures: saved.figures.map((f: Saved) => times(f, f.better === 'higher' ? 100 : 1 / 100)) }));
    writeFileSync(path.join(dir, 'slower.json'), JSON.stringify({ ...saved, figures: saved.figures.map((f: Saved) => times(f, f.better === 'higher' ? 1 / 100 : 100)) }));
    const bad = runCli(['bench', CAPTURE, '--config', snapshot, '--runs', '5', '--no-peers', '--compare', path.join(dir, 'faster.json')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/firewall alone .* slower .*\(p = .*, spread .*REGRESSION/);
    const good = runCli(['bench', CAPTURE, '--config', snapshot, '--runs', '5', '--no-peers', '--compare', path.join(dir, 'slower.json')]);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stderr).toMatch(/firewall alone .* faster/);
  }, 300_000);

  it('says in one line that a baseline saved by an older edgesim must be saved again', () => {
    const old = path.join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ date: '2026-11-25T00:00:00Z', input: CAPTURE, figures: [{ name: 'firewall alone', value: 1, unit: 'packets/s', better: 'higher', samples: [1, 1, 1] }] }));
    const r = runCli(['bench', CAPTURE, '--config', snapshot, '--runs', '1', '--no-peers', '--compare', old]);
    expect(r.stderr).toBe(`edgesim: ${old}: cannot compare with the saved figures: saved by an older edgesim, without each process's figures: save the baseline again with --save\n`);
    expect(r.status).toBe(2);
  });

  it('refuses fewer processes than a comparison needs, and standard input, in one line each', () => {
    const few = runCli(['bench', CAPTURE, '--config', snapshot, '--processes', '4', '--save', path.join(dir, 'few.json')]);
    expect(few.stderr).toBe('edgesim: --processes must be at least 5: with fewer, no difference can be told from noise at p < 0.01\n');
    expect(few.status).toBe(2);
    const stdin = runCli(['bench', '-', '--config', snapshot, '--against', snapshot]);
    expect(stdin.stderr).toBe('edgesim: --save, --compare and --against measure in several processes: give files, not standard input (read once)\n');
    expect(stdin.status).toBe(2);
    const both = runCli(['bench', CAPTURE, '--config', snapshot, '--against', snapshot, '--compare', path.join(dir, 'saved.json')]);
    expect(both.stderr).toBe('edgesim: give --compare FILE (saved figures) or --against AFTER (a configuration measured now), not both\n');
  });

  it('takes synthetic traffic and says what is wrong on bad input', () => {
    const s = runCli(['bench', '--scenario', 'syn-flood', '--packets', '3000', '--config', snapshot, '--runs', '1', '--json']);
    expect(s.status, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).packets).toBe(3000);
    const both = runCli(['bench', CAPTURE, '--scenario', 'mixed', '--config', snapshot]);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('edgesim: give a capture file or --scenario NAME (one of them)\n');
    const missing = runCli(['bench', CAPTURE, '--config', snapshot, '--compare', path.join(dir, 'nope.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.json');
  });
});

describe('edgesim bench with Advanced TCP Protection', () => {
  const DEMO = ['examples/demo.pcap', '--config', 'examples/demo-snapshot.json'];

  it("counts each rule's matches as a replay counts its hits: packets protection drops never reach the firewall", () => {
    const replay = runCli(['replay', ...DEMO, '--format', 'json']);
    expect(replay.status, replay.stderr).toBe(0);
    const replayed = JSON.parse(replay.stdout);
    expect(replayed.droppedByStage.syn_protection).toBeGreaterThan(0);
    const bench = runCli(['bench', ...DEMO, '--runs', '1', '--no-peers', '--json']);
    expect(bench.status, bench.stderr).toBe(0);
    const report = JSON.parse(bench.stdout);
    expect(report.rules.map((x: { matches: number; decided: number }) => [x.matches, x.decided])).toEqual(
      replayed.rules.map((x: { hits: number; decided: number }) => [x.hits, x.decided]),
    );
    const protectionDrops = replayed.droppedByStage.syn_protection + replayed.droppedByStage.tcp_flow_protection;
    const ip = runCli(['match', 'examples/demo.pcap', 'ip.ttl >= 0', '--count']);
    expect(report.firewall.packets).toBe(Number(ip.stdout) - protectionDrops);
    expect(report.rules[0].evaluations).toBe(report.firewall.packets);
  });

  // --against: both configurations measured now, in alternating processes, so the machine's load
  // changes hit both alike (a saved baseline measured under another load differs by 25-58% here)
  const AGAINST = ['bench', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--no-peers', '--runs', '1', '--min-time', '1', '--threshold', '25'];

  it('with --against, catches a configuration that makes the firewall do 2.6x the work', () => {
    const r = runCli([...AGAINST, '--against', writeSlowerDemo(path.join(dir, 'slower-demo.json'))]);
    expect(r.stderr).toMatch(/slower-demo\.json against examples\/demo-snapshot\.json \(5 processes each, alternating\):\n/);
    expect(r.stderr).toMatch(/\nfirewall alone .* slower \d+\.\d% \(p = 0\.00\d, spread \d+\.\d%\)  REGRESSION\n/);
    expect(r.stderr).toMatch(/\nrule customer-0 .* added\n/);
    expect(r.stderr).toMatch(/row\(s\) significantly slower than examples\/demo-snapshot\.json by more than 25%\n$/);
    expect(r.status).toBe(1);
  }, 600_000);

  it('with --against, does not call the same configuration slower: differences are inconclusive, with their spread', () => {
    const r = runCli([...AGAINST, '--against', 'examples/demo-snapshot.json']);
    expect(r.stderr, r.stderr).not.toContain('REGRESSION');
    expect(r.stderr).toMatch(/\nfirewall alone .* (inconclusive|faster|slower) .*\(p = .*, spread .*\)\n/);
    expect(r.status, r.stderr).toBe(0);
  }, 600_000);

  // GNU time's figures for the whole process; the watchdog stops a run at 1 GB (the old bench
  // prepared a protection state per pass of a sample, 200,000 / packets of them: 2.8 GB on 15 packets)
  it.each([1, 15])('measures a %i-packet capture in bounded memory and time', async (packets) => {
    const capture = path.join(dir, `tiny-${packets}.pcap`);
    const synth = runCli(['synth', 'mixed', '--packets', String(packets), '--out', capture, '--no-labels']);
    expect(synth.status, synth.stderr).toBe(0);
    const r = await runCliMeasured(['bench', capture, '--config', 'examples/demo-snapshot.json', '--no-peers', '--json'], { maxRssBytes: 2 ** 30, timeoutMs: 40_000 });
    expect(r.killed, `peak ${r.peakRssBytes} bytes after ${r.wallSeconds} s`).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).packets).toBe(packets);
    expect(r.peakRssBytes).toBeLessThan(400 * 2 ** 20);
    expect(r.wallSeconds).toBeLessThan(20);
  });

  it('says in one line that an empty capture holds nothing to measure', async () => {
    const one = path.join(dir, 'one.pcap');
    expect(runCli(['synth', 'mixed', '--packets', '1', '--out', one, '--no-labels']).status).toBe(0);
    const empty = path.join(dir, 'empty.pcap');
    writeFileSync(empty, readFileSync(one).subarray(0, 24));
    const r = await runCliMeasured(['bench', empty, '--config', 'examples/demo-snapshot.json', '--no-peers'], { maxRssBytes: 2 ** 30, timeoutMs: 20_000 });
    expect(r.killed).toBeNull();
    expect(r.stderr).toBe(`edgesim: ${empty}: no packets to measure\n`);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('edgesim explain --bpf / --display-filter', () => {
  it('prints the translation', () => {
    expect(runCli(['explain', '--bpf', 'ip.src in {10.0.0.0/8} and ip.ttl < 64']).stdout).toBe('(ip src net 10.0.0.0/8) and ((ip and ip[8] <= 63) or (ip6 and ip6[7] <= 63))\n');
    // the transport right after the outermost IP header and its IPv6 extension headers
    expect(runCli(['explain', '--display-filter', 'udp.dstport == 53']).stdout).toBe(
      '(udp.dstport#1 in {53} && frame.protocols matches "^(?:(?!ip:|ipv6:)[^:]+:)*(?:ip|ipv6(?::(?:ipv6\\\\.(?:hopopts|dstopts|routing|fraghdr)|ah))*):(?:udp)(?::|$)")\n',
    );
  });

  it('says exactly why there is none, exit 1', () => {
    const port = runCli(['explain', '--bpf', 'udp.dstport == 53']);
    expect(port.status).toBe(1);
    expect(port.stderr).toBe('edgesim: no exact BPF: udp.dstport is not translated to BPF: on IPv6 edgesim reads it after the extension headers (hop-by-hop, destination options, routing, fragment, AH), and libpcap reads a transport header only right after the fixed IPv6 header; the display filter (--display-filter) follows them\n');
    const r = runCli(['explain', '--bpf', 'ip.geoip.country == "CN"']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('edgesim: no exact BPF: ip.geoip.country has no BPF equivalent (its value comes from a GeoIP lookup)\n');
  });
});
