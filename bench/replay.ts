// Replay speed against tcpdump on the same file, measured side by side in one run: a 1,000,000-packet
// `mixed` synthetic capture through a 10-rule ruleset (protection off) versus `tcpdump -r` with an
// equivalent BPF filter (the disjunction of the rules' conditions), whole processes; the firewall's
// fast path against the decoder + evaluator it falls back to; the same capture through 1,000 rules
// (the 10 after 990 port and address rules, as production rulesets look) against the 10; and the
// replay with Advanced TCP Protection on; realistic rulesets (realistic-rulesets.ts: 40 rules with
// lists, lookups and payload tests, and 1,000 per-customer rules on the ports the capture uses)
// against the 10; then a 10,000,000-packet capture (about 1.9 GB, made once in
// the temporary folder) against tcpdump, on the threads `--jobs auto` takes and on one, with the
// replay's peak memory; and `edgesim match --count`,
// the tcpdump-like command, against `tcpdump -r` with the same filter. Each figure is the best of a
// few runs with the page cache warm, the figures compared with each other taken in turns.
import { spawnSync } from 'node:child_process';
import { accessSync, readFileSync } from 'node:fs';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateToFile } from '../src/capture/synth/index.js';
import type { Snapshot } from '../src/config/snapshot.js';
import type { EngineReport } from '../src/sim/engine-counts.js';
import { AUTO_THREADS_MAX } from '../src/sim/jobs/threads.js';
import { replayFile } from '../src/sim/replay.js';
import { PARTNER_LISTS, realisticRuleset } from './realistic-rulesets.js';
import type { BenchRow, BenchSuite } from './types.js';

const PACKETS = 1_000_000;
const LARGE_PACKETS = 10_000_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** the 10-rule ruleset (and its BPF equivalents); also the last 10 rules of the many-rules suite's rulesets */
export const RULES: Array<[string, 'block' | 'skip' | 'log', string, string]> = [
  ['telnet', 'block', 'tcp.dstport in { 23 2323 }', 'tcp dst port 23 or tcp dst port 2323'],
  ['chargen', 'block', 'udp.dstport == 19', 'udp dst port 19'],
  ['bad-net', 'block', 'ip.src in { 10.66.0.0/16 }', 'src net 10.66.0.0/16'],
  ['low-ttl', 'block', 'ip.ttl < 2', '(ip and ip[8] < 2)'],
  ['syn-fin', 'block', 'tcp.flags.syn and tcp.flags.fin', '(tcp and tcp[13] & 3 == 3)'],
  ['ssdp', 'block', 'udp.srcport == 1900', 'udp src port 1900'],
  ['ping', 'log', 'icmp.type == 8', '(icmp and icmp[0] == 8)'],
  ['ntp', 'block', 'ip.dst in { 198.51.100.0/24 } and udp.dstport == 123', '(dst net 198.51.100.0/24 and udp dst port 123)'],
  ['web', 'skip', 'ip.dst == 203.0.113.10 and tcp.dstport in { 80 443 }', '(dst host 203.0.113.10 and (tcp dst port 80 or tcp dst port 443))'],
  ['high-ports', 'block', 'ip.proto == "tcp" and tcp.dstport > 1024 and ip.dst in { 203.0.113.0/24 }', '(dst net 203.0.113.0/24 and tcp and tcp dst portrange 1025-65535)'],
];

/** 990 rules on ports and addresses the capture mostly does not use, then the 10 */
function largeRuleset(): Array<[string, 'block' | 'skip' | 'log', string]> {
  const rules: Array<[string, 'block' | 'skip' | 'log', string]> = [];
  for (let k = 0; k < 990; k++) {
    const expression = k % 3 === 0 ? `tcp.dstport == ${10000 + k} and ip.ttl < 30`
      : k % 3 === 1 ? `udp.dstport in { ${20000 + k} ${30000 + k} }`
        : `ip.src in { 100.${k % 256}.${k >> 8}.0/24 } and tcp.flags.syn`;
    rules.push([`r${k}`, 'block', expression]);
  }
  return [...rules, ...RULES.map(([ref, action, expression]) => [ref, action, expression] as [string, 'block' | 'skip' | 'log', string])];
}

function snapshot(protection: boolean, rules: Array<[string, 'block' | 'skip' | 'log', string]> = RULES.map(([r, a, e]) => [r, a, e])): Snapshot {
  return {
    lists: PARTNER_LISTS,
    tcp_protection_status: { enabled: protection },
    prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }, { prefix: '2001:db8:ffff::/48', comment: 'servers v6', excluded: false }],
    syn_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
    tcp_flow_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
    rulesets: [
      {
        name: 'bench',
        kind: 'root',
        phase: 'edge_transit',
        rules: rules.map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) })),
      },
    ],
  };
}

/** The share of a replay's frames the compiled path decided (its engine counts), the main fallback reasons and rules read on decoded frames in the note. */
function compiledShare(name: string, engine: EngineReport, input: string): BenchRow {
  const frames = engine.compiled + engine.fallback;
  const main = (reasons: Record<string, number>) => Object.entries(reasons).slice(0, 2).map(([reason, n]) => `${reason}: ${n.toLocaleString('en-US')}`).join(', ');
  const fell = engine.fallback > 0 ? `; fell back: ${main(engine.fallback_reasons)}` : '';
  const decoded = engine.decoded > 0 ? `; ${engine.decoded.toLocaleString('en-US')} decoded for rules: ${main(engine.decoded_reasons)}` : '';
  return { suite: 'replay', name, value: (100 * engine.compiled) / frames, unit: '%', better: 'higher', note: `${input}; ${engine.compiled.toLocaleString('en-US')} of ${frames.toLocaleString('en-US')}${fell}${decoded}; goal >= 95%` };
}

function best(times: number[]): number {
  return Math.min(...times);
}

/** Each command's best wall time over `rounds` rounds, the commands run in turns (the machine's load drifts). */
function inTurns(rounds: number, commands: Array<[cmd: string, args: string[]]>): number[] {
  const times: number[][] = commands.map(() => []);
  for (let round = 0; round < rounds; round++) commands.forEach(([cmd, args], i) => times[i]!.push(wall(cmd, args)));
  return times.map(best);
}

function wall(cmd: string, args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return s;
}

async function capture(packets = PACKETS): Promise<string> {
  const file = path.join(os.tmpdir(), `edgesim-bench-mixed-${packets}.pcap`);
  if (!existsSync(file)) await generateToFile('mixed', file, { packets, seed: 1, labels: null });
  return file;
}

/** The peak resident memory of a command in KB (GNU time), or null where /usr/bin/time is missing. */
function peakKb(cmd: string, args: string[]): number | null {
  try {
    accessSync('/usr/bin/time');
  } catch {
    return null;
  }
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return r.status === 0 && Number.isFinite(kb) ? kb : null;
}

export const suite: BenchSuite = async () => {
  const file = await capture();
  const rows: BenchRow[] = [];
  const bpf = RULES.map(([, , , b]) => b).join(' or ');

  // the in-process replays compared with each other run in turns, best of five each: the machine's
  // load drifts, and a ratio of two figures taken minutes apart would measure the drift
  const variants: Array<[Snapshot, boolean]> = [
    [snapshot(false), true], [snapshot(false), false], [snapshot(false, largeRuleset()), true], [snapshot(true), true],
    [snapshot(false, realisticRuleset(25)), true], [snapshot(false, realisticRuleset(985)), true],
  ];
  const times: number[][] = variants.map(() => []);
  const engines: EngineReport[] = [];
  let protectedPackets = 0;
  for (let round = 0; round < 5; round++) {
    for (const [i, [snap, fastPath]] of variants.entries()) {
      const { report } = await replayFile(file, snap, { useLabels: false, fastPath });
      if (report.packets !== PACKETS) throw new Error(`replayed ${report.packets} packets, expected ${PACKETS}`);
      times[i]!.push(report.elapsedSeconds);
      engines[i] = report.engine;
      if (report.atp !== null) protectedPackets = report.atp.packets.protected;
    }
  }
  const [fwOnly, reference, large, withAtp, realistic, realisticLarge] = times.map(best) as [number, number, number, number, number, number];
  const demo = (await replayFile(path.join(root, 'examples/demo.pcap'), JSON.parse(readFileSync(path.join(root, 'examples/demo-snapshot.json'), 'utf8')) as Snapshot)).report.engine;

  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-'));
  const snapFile = path.join(dir, 'snapshot.json');
  writeFileSync(snapFile, JSON.stringify(snapshot(false)));
  const edgesim = path.join(root, 'bin/edgesim.js');
  const [tcpdump, cli] = inTurns(5, [
    ['tcpdump', ['-nr', file, '-w', '/dev/null', bpf]],
    [process.execPath, [edgesim, 'replay', file, '--config', snapFile, '--format', 'json', '--no-labels', '--no-progress']],
  ]) as [number, number];

  const [, , telnetExpr, telnetBpf] = RULES[0]!;
  const [matchTcpdump, matchCli] = inTurns(3, [
    ['tcpdump', ['-nr', file, '-w', '/dev/null', telnetBpf]],
    [process.execPath, [edgesim, 'match', file, telnetExpr, '--count']],
  ]) as [number, number];

  const largeFile = await capture(LARGE_PACKETS);
  const largeArgs = [edgesim, 'replay', largeFile, '--config', snapFile, '--format', 'json', '--no-labels', '--no-progress'];
  // --jobs auto: this size is cut into ranges replayed on the processors idle when it starts, up to 4 (sim/jobs/threads.ts)
  const [largeTcpdump, largeCli, largeOneThread] = inTurns(3, [
    ['tcpdump', ['-nr', largeFile, '-w', '/dev/null', bpf]],
    [process.execPath, largeArgs],
    [process.execPath, [...largeArgs, '--jobs', '1']],
  ]) as [number, number, number];
  const largePeak = peakKb(process.execPath, largeArgs);

  // start-up: interleaved, best of ten each, as the machine's load changes from run to run
  const node: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < 10; i++) {
    node.push(wall(process.execPath, ['-e', '0']));
    version.push(wall(process.execPath, [edgesim, '--version']));
  }

  const note = `${PACKETS.toLocaleString('en-US')}-packet mixed capture, 10 rules`;
  rows.push({ suite: 'replay', name: 'tcpdump -r with equivalent BPF (whole process)', value: PACKETS / tcpdump, unit: 'pkt/s', note: `${tcpdump.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: 'edgesim replay CLI, whole process incl. Node start-up', value: PACKETS / cli, unit: 'pkt/s', note: `${cli.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: 'ratio edgesim CLI/tcpdump (whole-process wall time)', value: tcpdump / cli, unit: 'x', better: 'higher', note: `${note}; goal >= 1.0x` });
  rows.push({ suite: 'replay', name: 'edgesim replay in process (read+rules, fast path)', value: PACKETS / fwOnly, unit: 'pkt/s', note: `${fwOnly.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: 'ratio in-process replay/tcpdump whole process', value: tcpdump / fwOnly, unit: 'x', better: 'higher', note });
  rows.push({ suite: 'replay', name: 'fast path speed-up over decoder + evaluator', value: reference / fwOnly, unit: 'x', better: 'higher', note: `${note}; decoder + evaluator ${reference.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: '1,000 rules vs 10 rules (time ratio)', value: large / fwOnly, unit: 'x', note: `1,000 rules ${large.toFixed(3)} s; goal <= 2x` });
  rows.push({ suite: 'replay', name: 'realistic 40 rules vs 10-rule port/CIDR (time ratio)', value: realistic / fwOnly, unit: 'x', note: `lists, country, region, DNS payload, bit_slice, flags, then per-customer rules: ${realistic.toFixed(3)} s; goal <= 1.25x` });
  rows.push({ suite: 'replay', name: '1,000 realistic rules vs 10 rules (time ratio)', value: realisticLarge / fwOnly, unit: 'x', note: `per-customer CIDR sets on the ports the capture uses: ${realisticLarge.toFixed(3)} s; goal <= 2x` });
  rows.push(compiledShare('demo configuration, frames on the compiled path', demo, 'examples/demo.pcap'));
  const mixed = `${PACKETS.toLocaleString('en-US')}-packet mixed capture`;
  rows.push(compiledShare('realistic 40 rules, frames on the compiled path', engines[4]!, mixed));
  rows.push(compiledShare('1,000 realistic rules, frames on the compiled path', engines[5]!, mixed));
  rows.push({ suite: 'replay', name: 'edgesim replay, protection on (ATP + firewall)', value: PACKETS / withAtp, unit: 'pkt/s', note: `${withAtp.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: 'slowdown with protection on vs firewall only', value: withAtp / fwOnly, unit: 'x', note: 'goal <= 1.5x' });
  rows.push({ suite: 'replay', name: 'time protection on adds, per protected packet', value: ((withAtp - fwOnly) / protectedPackets) * 1e9, unit: 'ns', note: `${protectedPackets.toLocaleString('en-US')} of the ${PACKETS.toLocaleString('en-US')} packets go to a protected prefix` });
  const largeNote = `${LARGE_PACKETS.toLocaleString('en-US')}-packet mixed capture, 10 rules`;
  rows.push({ suite: 'replay', name: 'tcpdump -r, 10M packets (whole process)', value: LARGE_PACKETS / largeTcpdump, unit: 'pkt/s', note: `${largeTcpdump.toFixed(3)} s` });
  rows.push({ suite: 'replay', name: 'edgesim replay CLI, 10M packets (whole process, --jobs auto)', value: LARGE_PACKETS / largeCli, unit: 'pkt/s', note: `${largeCli.toFixed(3)} s on the threads auto took (the processors idle at its start, up to ${AUTO_THREADS_MAX} of ${os.availableParallelism()})` });
  rows.push({ suite: 'replay', name: 'ratio edgesim CLI/tcpdump, 10M packets', value: largeTcpdump / largeCli, unit: 'x', better: 'higher', note: `${largeNote}; goal >= 2.0x` });
  rows.push({ suite: 'replay', name: 'ratio edgesim CLI --jobs 1/tcpdump, 10M packets', value: largeTcpdump / largeOneThread, unit: 'x', better: 'higher', note: `${largeNote}; one thread ${largeOneThread.toFixed(3)} s` });
  if (largePeak !== null) rows.push({ suite: 'replay', name: 'peak memory replaying 10M packets (1.9 GB)', value: largePeak / 1024, unit: 'MB', note: 'goal: a 2 GB capture in under 200 MB' });
  rows.push({ suite: 'replay', name: 'ratio edgesim match --count/tcpdump (same filter)', value: matchTcpdump / matchCli, unit: 'x', better: 'higher', note: `${note}; ${telnetExpr}: edgesim ${matchCli.toFixed(3)} s, tcpdump ${matchTcpdump.toFixed(3)} s` });
  rmSync(dir, { recursive: true, force: true });
  rows.push({ suite: 'replay', name: 'edgesim --version minus node -e 0 (start-up)', value: (best(version) - best(node)) * 1000, unit: 'ms', note: `node -e 0 ${(best(node) * 1000).toFixed(0)} ms; goal <= 40 ms` });
  return rows;
};
