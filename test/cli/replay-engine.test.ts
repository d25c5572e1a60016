// The replay's engine counts: which lane decided each frame (the compiled path, or the decoder and
// evaluator it falls back to) and why each fallback happened, in the JSON summary, added up over
// --jobs ranges, and said on stderr when more than 5% of the frames fell back.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { ascii, ethernet, ipv4, pcapFile, tcp } from '../capture/helpers/build.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Engine {
  compiled: number;
  fallback: number;
  fallback_reasons: Record<string, number>;
  decoded: number;
  decoded_reasons: Record<string, number>;
}

let dir: string;
let snapshot: string;

/** `plain` TCP frames, after `cut` ones captured only to the middle of their IPv4 header (the decoder notes them) */
function capture(name: string, plain: number, cut: number): string {
  const packet = (i: number) => ipv4({ src: `10.0.${i >> 8 & 255}.${i & 255}`, dst: '203.0.113.10', proto: 6 }, tcp(40000 + (i % 1000), i % 7 === 0 ? 23 : 80, 0x02, ascii('GET /')));
  const frames = Array.from({ length: plain + cut }, (_, i) => ({
    sec: 1 + i,
    frac: 0,
    data: i < cut ? ethernet(0x0800, packet(i)).subarray(0, 24) : ethernet(0x0800, packet(i)),
    origLen: ethernet(0x0800, packet(i)).length,
  }));
  const file = path.join(dir, name);
  writeFileSync(file, pcapFile({ linkType: 1 }, frames));
  return file;
}

function engineOf(stdout: string): Engine & { packets: number } {
  const report = JSON.parse(stdout) as { engine: Engine; packets: number };
  return { ...report.engine, packets: report.packets };
}

beforeAll(() => {
  dir = tempDir('edgesim-engine-');
  const snap: Snapshot = { rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'telnet', action: 'block', expression: 'tcp.dstport == 23' }] }] };
  snapshot = path.join(dir, 'snapshot.json');
  writeFileSync(snapshot, JSON.stringify(snap));
});

describe('replay engine counts', () => {
  it('counts the frames each lane decided, with why each fallback happened, and says so on stderr above 5%', () => {
    const r = runCli(['replay', capture('tagged.pcap', 900, 100), '--config', snapshot, '--format', 'json']);
    expect(r.status).toBe(0);
    expect(engineOf(r.stdout)).toEqual({ compiled: 900, fallback: 100, fallback_reasons: { 'decode note': 100 }, decoded: 0, decoded_reasons: {}, packets: 1000 });
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^edgesim: warning: 10\.0% of the frames went through the decoder and evaluator instead of the compiled path: decode note \(100 frames\)$/)]);
  });

  it('says nothing at 5% or less', () => {
    const r = runCli(['replay', capture('few.pcap', 950, 50), '--config', snapshot, '--format', 'json']);
    expect(engineOf(r.stdout)).toMatchObject({ compiled: 950, fallback: 50 });
    expect(r.stderr).toBe('');
  });

  it('decides every frame of the bundled demo on the compiled path, its country rule included', () => {
    const r = runCli(['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json']);
    expect(engineOf(r.stdout)).toEqual({ compiled: 4526, fallback: 0, fallback_reasons: {}, decoded: 0, decoded_reasons: {}, packets: 4526 });
  });

  it('adds up the ranges of a replay on several threads', () => {
    const file = capture('jobs.pcap', 6000, 3000);
    const one = engineOf(runCli(['replay', file, '--config', snapshot, '--format', 'json', '--jobs', '1']).stdout);
    const three = runCli(['replay', file, '--config', snapshot, '--format', 'json', '--jobs', '3']);
    expect(three.status).toBe(0);
    expect(engineOf(three.stdout)).toEqual(one);
    expect(one).toEqual({ compiled: 6000, fallback: 3000, fallback_reasons: { 'decode note': 3000 }, decoded: 0, decoded_reasons: {}, packets: 9000 });
  });
});
