// `edgesim diff` on a capture: the frames it reports are exactly those whose verdict, deciding rule
// or stage differ between two replays of the same capture, one per configuration.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../src/capture/reader.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('edgesim-diff-');
const DEMO = 'examples/demo.pcap';
const BEFORE = 'examples/demo-snapshot.json';

/** The demo snapshot with one rule switched off. */
function without(ref: string): string {
  const s = JSON.parse(readFileSync(BEFORE, 'utf8')) as Snapshot;
  for (const r of s.rulesets![0]!.rules!) if (r.ref === ref) r.enabled = false;
  const file = path.join(tmp, `without-${ref}.json`);
  writeFileSync(file, JSON.stringify(s));
  return file;
}

interface Line {
  frame: number;
  time: string;
  verdict: string;
  rule: string | null;
  stage: string | null;
}

function replayLines(config: string): Line[] {
  const r = runCli(['replay', DEMO, '--config', config, '--format', 'ndjson']);
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
}

describe('edgesim diff CAPTURE', () => {
  const after = without('allow-web');

  it('reports exactly the frames two replays decide differently, exit 1', () => {
    const a = replayLines(BEFORE);
    const b = replayLines(after);
    const expected = a
      .map((x, i) => [x, b[i]!] as const)
      .filter(([x, y]) => x.verdict !== y.verdict || x.rule !== y.rule || x.stage !== y.stage)
      .map(([x, y]) => ({ frame: x.frame, before: { verdict: x.verdict, rule: x.rule, stage: x.stage }, after: { verdict: y.verdict, rule: y.rule, stage: y.stage } }));
    expect(expected.length).toBeGreaterThan(100);
    const r = runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--format', 'ndjson']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { frame: number; time: number; before: unknown; after: unknown });
    expect(lines.map(({ frame, before, after: changed }) => ({ frame, before, after: changed }))).toEqual(expected);
    expect(Object.keys(lines[0]!)).toEqual(['frame', 'time', 'before', 'after']);
    expect(r.stderr).toContain(`edgesim: ${expected.length.toLocaleString('en-US')} of ${a.length.toLocaleString('en-US')} packets decided differently`);
  });

  it("--fields adds each changed frame's own fields after its decisions, as edgesim inspect prints them", () => {
    const names = ['ip.src', 'ip.dst', 'ip.proto', 'tcp.dstport', 'udp.dstport', 'ip.ttl'];
    const r = runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--format', 'ndjson', '--fields', names.join(',')]);
    expect(r.status).toBe(1);
    const inspected = new Map(
      runCli(['inspect', DEMO])
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((f) => [f.frame, f]),
    );
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['frame', 'time', 'before', 'after', ...names]);
      const frame = inspected.get(line.frame)!;
      for (const name of names) expect(line[name], `frame ${line.frame} ${name}`).toEqual(frame[name] ?? null);
    }
    expect(lines.every((l) => typeof l['ip.src'] === 'string' && typeof l['ip.ttl'] === 'number')).toBe(true);
    const wrong = runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--format', 'ndjson', '--fields', 'ip.sauce']);
    expect([wrong.status, wrong.stderr]).toEqual([2, 'edgesim: --fields: "ip.sauce" is not a field of a packet (see edgesim fields)\n']);
    expect(runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--fields', 'ip.src']).status).toBe(2);
    const looked = runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--format', 'ndjson', '--fields', 'ip.src.country']);
    expect([looked.status, looked.stderr]).toEqual([2, "edgesim: --fields: ip.src.country is looked up (GeoIP, ASN or data center), not read from the frame; diff's --fields takes the frame's own fields\n"]);
  });

  it('groups the changes in a table and in JSON, and writes the changed frames to a pcap', async () => {
    const pcap = path.join(tmp, 'changed.pcap');
    const table = runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--write-changed', pcap]);
    expect(table.status).toBe(1);
    expect(table.stdout).toMatch(/packets \([\d.]+%\) decided differently/);
    expect(table.stdout).toContain('pass (allow-web)');
    const json = JSON.parse(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'json']).stdout) as { changed: number; packets: number; groups: Array<{ packets: number; frames: number[] }> };
    expect(json.groups.reduce((s, g) => s + g.packets, 0)).toBe(json.changed);
    const ndjson = runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'ndjson']).stdout.trim().split('\n');
    const times: string[] = [];
    await readCapture(pcap, (rec) => times.push(rec.timeText()));
    expect(times).toEqual(ndjson.map((l) => /"time":([\d.]+)/.exec(l)![1]));
  });

  it('names the protection rule of a protection drop as replay does', () => {
    const s = JSON.parse(readFileSync(BEFORE, 'utf8')) as Snapshot;
    s.tcp_protection_status = { enabled: false };
    const off = path.join(tmp, 'protection-off.json');
    writeFileSync(off, JSON.stringify(s));
    const replayed = new Map(replayLines(BEFORE).map((l) => [l.frame, l.rule]));
    const lines = runCli(['diff', DEMO, '--config', BEFORE, '--against', off, '--format', 'ndjson']).stdout.trim().split('\n');
    const protectionDrops = lines.map((l) => JSON.parse(l) as { frame: number; before: { stage: string | null; rule: string | null } }).filter((l) => l.before.stage === 'syn_protection');
    expect(protectionDrops.length).toBeGreaterThan(100);
    for (const l of protectionDrops) expect(l.before.rule).toBe(replayed.get(l.frame));
    expect(protectionDrops[0]!.before.rule).not.toBeNull();
  });

  it('exits 0 and says so when nothing changed', () => {
    const r = runCli(['diff', DEMO, '--config', BEFORE, '--against', BEFORE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/no change: each of 4,526 packets is decided the same way/);
    expect(runCli(['diff', DEMO, '--config', BEFORE, '--against', BEFORE, '--format', 'ndjson']).stdout).toBe('');
  });

  it('exits 2 without the second configuration', () => {
    const r = runCli(['diff', DEMO, '--config', BEFORE]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("required option '--against <after.json>' not specified");
  });
});
