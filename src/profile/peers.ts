// tcpdump and tshark on the same capture, beside edgesim's figures, when they are installed and the
// ruleset translates: the peer reads the file with the disjunction of the enabled rules' conditions as
// its filter (BPF for tcpdump, a display filter for tshark -Y), the same tests edgesim's firewall makes
// on a packet no rule decides early. Each peer is one process per run, timed from spawn to exit, so
// its figure includes its start-up and the file read (the note says so); the median of `runs` runs.
// The fair edgesim figure to set against them is fromFile(): edgesim's own replay of the same file,
// in-process, timed from the first packet read to the last (Node's start-up not included).
import { spawnSync } from 'node:child_process';
import type { Snapshot } from '../config/snapshot.js';
import type { PathOptions } from '../sim/build.js';
import { replayFile } from '../sim/replay.js';
import { toBpf } from '../translate/bpf.js';
import { toDisplayFilter, TSHARK_FRAME_BY_FRAME } from '../translate/display-filter.js';
import { Untranslatable } from '../translate/walk.js';
import { median } from './throughput.js';

export interface PeerResult {
  tool: 'tcpdump' | 'tshark';
  /** the filter given to the tool, or null when it was not run */
  filter: string | null;
  packets_per_second: number | null;
  /** why it was not run: not installed, the ruleset does not translate (with the reason), the tool failed */
  skipped: string | null;
}

function installed(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

function disjunction(expressions: readonly string[], translate: (e: string) => string, or: string): string {
  return expressions.map((e) => `(${translate(e)})`).join(` ${or} `);
}

/** The median of `runs` runs of the tool, a run being one process per capture (each reads one file), one after the other. */
function timeTool(cmd: string, argsOf: (capture: string) => string[], captures: readonly string[], runs: number): { ns: number } | { error: string } {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    let ns = 0;
    for (const capture of captures) {
      const t0 = process.hrtime.bigint();
      const res = spawnSync(cmd, argsOf(capture), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
      ns += Number(process.hrtime.bigint() - t0);
      if (res.status !== 0) return { error: `${cmd} failed: ${(res.stderr ?? '').trim().split('\n').pop()}` };
    }
    times.push(ns);
  }
  return { ns: median(times) };
}

/**
 * Runs tcpdump and tshark (those installed) on the captures with the translated rules; several
 * captures are read one after the other (each tool reads one file), their times added.
 */
export function runPeers(captures: string | readonly string[], expressions: readonly string[], packets: number, runs: number): PeerResult[] {
  const files = typeof captures === 'string' ? [captures] : captures;
  const peers: Array<{ tool: PeerResult['tool']; translate: (e: string) => string; args: (filter: string, capture: string) => string[]; join: string }> = [
    { tool: 'tcpdump', translate: toBpf, args: (f, capture) => ['-n', '-r', capture, '-w', '/dev/null', f], join: 'or' },
    { tool: 'tshark', translate: toDisplayFilter, args: (f, capture) => ['-n', ...TSHARK_FRAME_BY_FRAME, '-r', capture, '-Y', f, '-w', '/dev/null'], join: '||' },
  ];
  return peers.map(({ tool, translate, args, join }) => {
    if (!installed(tool)) return { tool, filter: null, packets_per_second: null, skipped: `${tool} is not installed` };
    if (expressions.length === 0) return { tool, filter: null, packets_per_second: null, skipped: 'the ruleset has no enabled rule' };
    let filter: string;
    try {
      filter = disjunction(expressions, translate, join);
    } catch (err) {
      if (err instanceof Untranslatable) return { tool, filter: null, packets_per_second: null, skipped: `the ruleset does not translate: ${err.reason}` };
      throw err;
    }
    const t = timeTool(tool, (capture) => args(filter, capture), files, runs);
    if ('error' in t) return { tool, filter, packets_per_second: null, skipped: t.error };
    return { tool, filter, packets_per_second: (packets * 1e9) / t.ns, skipped: null };
  });
}

/** edgesim's replay of `capture` (several: merged by time; sim/replay.ts, in-process): its packets, and packets/s as the median of `runs` runs. */
export async function fromFile(capture: string | readonly string[], snapshot: Snapshot, opts: PathOptions, runs: number): Promise<{ packets: number; packets_per_second: number }> {
  const times: number[] = [];
  let packets = 0;
  for (let r = 0; r < runs; r++) {
    const { report } = await replayFile(capture, snapshot, { ...opts, useLabels: false });
    times.push(report.elapsedSeconds * 1e9);
    packets = report.packets;
  }
  return { packets, packets_per_second: (packets * 1e9) / median(times) };
}
