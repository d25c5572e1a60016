import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, copyFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import { readCapture } from '../../src/capture/reader.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { modulesLoaded } from '../helpers/cli-modules.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let capture: string;

function writeSnapshot(name: string, snapshot: Snapshot): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(snapshot));
  return file;
}

function oneRule(expression: string, action: 'block' | 'skip' | 'log' = 'block'): Snapshot {
  return { rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'r1', action, expression }] }] };
}

function ndjson(text: string): Array<Record<string, unknown>> {
  return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** RFC 4180 rows: fields split at commas outside quotes, "" inside quotes a quote */
function csvRows(text: string): string[][] {
  return text.trim().split('\n').map((line) => {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted && ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) {
        cells.push(cell);
        cell = '';
      } else cell += ch;
    }
    cells.push(cell);
    return cells;
  });
}

function tsharkFrames(file: string, displayFilter: string): number[] {
  const out = execFileSync('tshark', ['-n', '-r', file, '-Y', displayFilter, '-T', 'fields', '-e', 'frame.number'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.trim().split('\n').filter(Boolean).map(Number);
}

beforeAll(async () => {
  dir = tempDir('edgesim-replay-');
  capture = path.join(dir, 'mixed.pcap');
  await generateToFile('mixed', capture, { packets: 3000, seed: 7 });
});

describe('edgesim replay', () => {
  it('loads only the code its outputs use: a summary loads no per-packet output, label reader, parallel replay or rule-place parser', () => {
    const config = writeSnapshot('modules.json', oneRule('tcp.dstport in { 80 443 }'));
    const optional = (m: string): boolean => m.startsWith('sim/outputs/packet-') || m === 'capture/pcap-writer.js' || m === 'capture/synth/labels.js' || m.startsWith('sim/jobs/range-');
    const summary = modulesLoaded(['replay', capture, '--config', config, '--format', 'json', '--no-labels']);
    expect(summary.project).toContain('sim/replay.js');
    expect(summary.project.filter(optional)).toEqual([]);
    expect(summary.packages).not.toContain('jsonc-parser');
    // each is loaded where it is used
    const perPacket = modulesLoaded(['replay', capture, '--config', config, '--format', 'ndjson', '--write-dropped', path.join(dir, 'modules-dropped.pcap')]);
    expect(perPacket.project).toEqual(expect.arrayContaining(['sim/outputs/packet-sinks.js', 'capture/pcap-writer.js', 'capture/synth/labels.js']));
    const placed = modulesLoaded(['lint', '--config', writeSnapshot('modules-lint.json', { rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'a', action: 'block', expression: 'tcp.dstport == 22' }, { ref: 'b', action: 'block', expression: 'tcp.dstport == 22' }] }] }), '--json'], 1);
    expect(placed.packages).toContain('jsonc-parser');
  });

  it('writes one NDJSON object per packet with the contract keys, frames numbered from 1', () => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('web.json', oneRule('tcp.dstport in { 80 443 }')), '--format', 'ndjson']);
    expect(r.status).toBe(0);
    const rows = ndjson(r.stdout);
    expect(rows.length).toBe(3000);
    rows.forEach((row, i) => {
      expect(Object.keys(row).slice(0, 8)).toEqual(['frame', 'time', 'verdict', 'stage', 'rule', 'matched', 'monitor', 'reason']);
      expect(row.frame).toBe(i + 1);
      expect(typeof row.time).toBe('number');
      if (row.verdict === 'drop') expect(row).toMatchObject({ stage: 'firewall', rule: 'r1', matched: ['r1'] });
      else expect(row).toMatchObject({ verdict: 'pass', stage: null, rule: null, matched: [] });
    });
    expect(r.stderr).toMatch(/^edgesim: 3,000 packets: [\d,]+ passed, [\d,]+ dropped$/m);
  });

  // tshark is the oracle: the same condition as a Wireshark display filter selects the same frames.
  const differential: Array<[string, string]> = [
    ['tcp.dstport in { 80 443 }', 'tcp.dstport in {80, 443}'],
    ['ip.src in { 10.0.0.0/8 } and tcp.flags.syn and not tcp.flags.ack', 'ip.src in {10.0.0.0/8} and tcp.flags.syn == 1 and tcp.flags.ack == 0'],
    ['udp.dstport == 53 or icmp.type == 8', '(udp.dstport == 53 and not icmp) or icmp.type == 8'],
    // ip.ttl and ip.len cover IPv6 too (hop limit; payload length + 40), where tshark has ipv6.* fields
    ['ip.ttl < 64 and ip.len > 100', '(ip.ttl < 64 and ip.len > 100) or (ipv6.hlim < 64 and ipv6.plen > 60)'],
    ['tcp.flags == 0x10', 'tcp.flags == 0x010'],
  ];
  it.each(differential)('drops exactly the frames tshark selects for %s', (expression, displayFilter) => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('d.json', oneRule(expression)), '--format', 'ndjson']);
    expect(r.status).toBe(0);
    const dropped = ndjson(r.stdout).filter((row) => row.verdict === 'drop').map((row) => row.frame);
    const expected = tsharkFrames(capture, displayFilter);
    expect(expected.length).toBeGreaterThan(0);
    expect(dropped).toEqual(expected);
  });

  it('agrees with `edgesim match` on the same expression', () => {
    const expression = 'ip.dst in { 203.0.113.0/24 } and not tcp.dstport in { 80 443 }';
    const replayRows = ndjson(runCli(['replay', capture, '--config', writeSnapshot('m.json', oneRule(expression)), '--format', 'ndjson']).stdout);
    const matched = runCli(['match', capture, expression]);
    expect(matched.status).toBe(0);
    const frames = matched.stdout.trim().split('\n').filter(Boolean).map(Number);
    expect(frames).toEqual(replayRows.filter((row) => row.verdict === 'drop').map((row) => row.frame));
    expect(runCli(['match', capture, expression, '--count']).stdout).toBe(`${frames.length}\n`);
  });

  it('writes the passed and dropped packets to pcap files that hold exactly those frames, byte for byte', async () => {
    const passed = path.join(dir, 'passed.pcap');
    const dropped = path.join(dir, 'dropped.pcap');
    const r = runCli(['replay', capture, '--config', writeSnapshot('w.json', oneRule('ip.proto == "udp"')), '--write-passed', passed, '--write-dropped', dropped, '--format', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { passed: number; dropped: number };
    const original: Buffer[] = [];
    await readCapture(capture, (rec) => original.push(Buffer.from(rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen))));
    const udpFrames = tsharkFrames(capture, 'udp and not icmp');
    const read = async (f: string) => {
      const frames: Buffer[] = [];
      await readCapture(f, (rec) => frames.push(Buffer.from(rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen))));
      return frames;
    };
    const droppedFrames = await read(dropped);
    const passedFrames = await read(passed);
    expect(droppedFrames.length).toBe(report.dropped);
    expect(passedFrames.length).toBe(report.passed);
    expect(droppedFrames).toEqual(udpFrames.map((f) => original[f - 1]));
    expect(Number(execFileSync('capinfos', ['-c', '-M', '-T', dropped], { encoding: 'utf8' }).trim().split('\n').pop()!.split('\t')[1])).toBe(report.dropped);
  });

  it('reads the configuration from standard input with --config -, naming it so in errors', () => {
    const demo = ['replay', 'examples/demo.pcap', '--format', 'ndjson'];
    const fromFile = runCli([...demo, '--config', 'examples/demo-snapshot.json']);
    const fromStdin = runCli([...demo, '--config', '-'], { input: readFileSync('examples/demo-snapshot.json') });
    expect(fromStdin.status, fromStdin.stderr).toBe(fromFile.status);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    const bad = runCli([...demo, '--config', '-'], { input: '{"rulesets": [' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('edgesim: standard input: invalid JSON: Unexpected end of JSON input\n');
  });

  it('adds the packet fields --fields names to NDJSON and CSV, valued as edgesim inspect prints them, null when absent', () => {
    const names = ['ip.src', 'ip.dst', 'ip.proto', 'tcp.dstport', 'tcp.flags.syn'];
    const demo = ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--fields', names.join(',')];
    const inspected = runCli(['inspect', 'examples/demo.pcap']).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const ndjson = runCli([...demo, '-f', 'ndjson']);
    expect(ndjson.status, ndjson.stderr).toBe(0);
    const rows = ndjson.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBe(inspected.length);
    rows.forEach((row, i) => {
      expect(Object.keys(row).slice(-names.length)).toEqual(names);
      for (const name of names) expect(row[name]).toEqual(inspected[i][name] ?? null);
    });
    expect(rows.some((r) => r['tcp.dstport'] !== null) && rows.some((r) => r['tcp.dstport'] === null)).toBe(true);
    const csv = runCli([...demo, '-f', 'csv']).stdout.trim().split('\n');
    expect(csv[0]!.split(',').slice(-names.length)).toEqual(names);
    csv.slice(1).forEach((line, i) => expect(line.split(',').slice(-names.length)).toEqual(names.map((n) => String(inspected[i][n] ?? ''))));
    const typo = runCli([...demo.slice(0, -1), 'ip.sr', '-f', 'ndjson']);
    expect([typo.status, typo.stderr]).toEqual([2, 'edgesim: --fields: "ip.sr" is not a field of a packet (see edgesim fields)\n']);
  });

  it('writes CSV with a header and one row per packet', () => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('c.json', oneRule('tcp.dstport == 80', 'log')), '--format', 'csv']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('frame,time,verdict,stage,rule,matched,monitor_stage,monitor_verdict,monitor_reason,monitor_rule,reason,note');
    expect(lines.length).toBe(3001);
    const logged = lines.slice(1).filter((l) => l.split(',')[5] === 'r1');
    expect(logged.length).toBeGreaterThan(0);
    for (const l of logged) expect(l.split(',')[2]).toBe('pass'); // log never decides
  });

  it('writes in CSV exactly what it writes in NDJSON, packet by packet (protection drops and monitoring notes included)', () => {
    const demo = ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json'];
    const json = runCli([...demo, '--format', 'ndjson']);
    const csv = runCli([...demo, '--format', 'csv']);
    expect(json.status).toBe(0);
    expect(csv.status).toBe(0);
    const [header, ...rows] = csvRows(csv.stdout);
    const objects = ndjson(json.stdout);
    expect(rows.length).toBe(objects.length);
    const flat = objects.map((o) => {
      const { monitor, ...rest } = o as { monitor: Record<string, unknown> | null };
      const cells: Record<string, string | number> = {};
      for (const [key, value] of Object.entries(rest)) cells[key] = Array.isArray(value) ? value.join(';') : value === null ? '' : typeof value === 'number' ? value : String(value);
      for (const key of ['stage', 'verdict', 'reason', 'rule']) cells[`monitor_${key}`] = monitor?.[key] === undefined || monitor[key] === null ? '' : String(monitor[key]);
      cells.note ??= '';
      return cells;
    });
    // numbers (frame, time) compared as numbers: JSON.parse drops the time's trailing zeros
    const numeric = new Set(['frame', 'time']);
    expect(rows.map((row) => Object.fromEntries(header!.map((column, i) => [column, numeric.has(column) ? Number(row[i]) : row[i]])))).toEqual(flat);
    // the demo holds what distinguishes the formats' fields: protection drops named by their ATP rule, monitoring notes
    expect(flat.some((p) => p.stage === 'syn_protection' && p.rule !== '')).toBe(true);
    expect(flat.some((p) => p.monitor_rule !== '')).toBe(true);
  });

  it('counts one packet in the singular, and many with their digits grouped, in every line that counts packets', () => {
    const demo = readFileSync('examples/demo.pcap');
    const one = path.join(dir, 'one.pcap');
    writeFileSync(one, demo.subarray(0, 24 + 16 + demo.readUInt32LE(24 + 8)));
    const snap = writeSnapshot('all.json', oneRule('ip.src in { 0.0.0.0/0 }'));
    expect(runCli(['replay', one, '--config', snap, '--format', 'ndjson']).stderr).toBe('edgesim: 1 packet: 0 passed, 1 dropped\n');
    expect(runCli(['diff', one, '--config', snap, '--against', snap]).stdout).toBe(`${one}: no change: each of 1 packet is decided the same way\n`);
    expect(runCli(['diff', one, '--config', snap, '--against', writeSnapshot('none.json', {}), '--format', 'ndjson']).stderr).toBe('edgesim: 1 of 1 packet decided differently\n');
    expect(runCli(['trace', one, '--frame', '2', '--config', snap]).stderr).toBe(`edgesim: ${one}: has 1 frame, no frame 2\n`);
    expect(runCli(['replay', 'examples/demo.pcap', '--config', snap, '--format', 'csv']).stderr).toMatch(/^edgesim: 4,526 packets: \d{1,3} passed, \d,\d{3} dropped\n$/);
  });

  it('prints a summary table with per-rule hits, never-hit rules and label scores', () => {
    const snap: Snapshot = {
      rulesets: [
        {
          name: 'rs',
          kind: 'root',
          phase: 'edge_transit',
          rules: [
            { ref: 'block-syn-80', action: 'block', expression: 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport == 80' },
            { ref: 'never', action: 'block', expression: 'tcp.dstport == 31337' },
          ],
        },
      ],
    };
    const r = runCli(['replay', capture, '--config', writeSnapshot('t.json', snap)]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/3,000 packets/);
    expect(r.stdout).toContain('block-syn-80');
    expect(r.stdout).toMatch(/never hit: never/);
    expect(r.stdout).toMatch(/attack packets/);
    expect(r.stdout).toMatch(/legitimate flows with a dropped packet/);
  });

  it('names the configuration path and the Rules-language error for a broken rule, without a stack trace', () => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('bad.json', oneRule('ip.src==34'))]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('rulesets[0].rules[0].expression');
    expect(r.stderr).toContain("        ^^ couldn't parse address in network: invalid IP address syntax");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('says clearly when the capture is missing or is not a capture', () => {
    const snap = writeSnapshot('ok.json', oneRule('ip.proto == "udp"'));
    const missing = runCli(['replay', path.join(dir, 'nope.pcap'), '--config', snap]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^edgesim: .*nope\.pcap/);
    const notCapture = path.join(dir, 'text.pcap');
    writeFileSync(notCapture, 'hello, this is not a capture file\n');
    const bad = runCli(['replay', notCapture, '--config', snap]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('replays a truncated capture up to the cut and reports it', () => {
    const cut = path.join(dir, 'cut.pcap');
    copyFileSync(capture, cut);
    truncateSync(cut, Math.floor(statSync(capture).size / 2) + 7);
    const r = runCli(['replay', cut, '--config', writeSnapshot('ok2.json', oneRule('ip.proto == "udp"')), '--format', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { packets: number; capture: { warnings: string[] } };
    expect(report.packets).toBeGreaterThan(1000);
    expect(report.packets).toBeLessThan(3000);
    expect(report.capture.warnings.join(' ')).toMatch(/truncated/);
  });

  it('needs a configuration, and not two', () => {
    expect(runCli(['replay', capture]).stderr).toMatch(/no configuration: give --config/);
    expect(runCli(['replay', capture, '--config', 'a.json', '--api', 'http://127.0.0.1:1/client/v4']).stderr).toMatch(/either --config or --api/);
  });

  it('keeps JSON report figures consistent: passed + dropped = packets = frames in the file', async () => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('j.json', oneRule('tcp.flags.reset')), '--format', 'json']);
    const report = JSON.parse(r.stdout) as { packets: number; passed: number; dropped: number; droppedByStage: Record<string, number>; rules: Array<{ hits: number; decided: number }> };
    let frames = 0;
    await readCapture(capture, () => frames++);
    expect(report.packets).toBe(frames);
    expect(report.passed + report.dropped).toBe(report.packets);
    expect(report.droppedByStage.firewall).toBe(report.dropped);
    expect(report.rules[0].decided).toBe(report.dropped);
    expect(report.dropped).toBe(tsharkFrames(capture, 'tcp.flags.reset == 1').length);
  });
});

describe('replay --jobs', () => {
  const summary = (stdout: string): unknown => {
    const { elapsedSeconds: _e, packetsPerSecond: _p, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
    return rest;
  };

  it('prints the one-thread summary when the capture is replayed in ranges on worker threads (the built worker)', () => {
    const snap = writeSnapshot('jobs.json', oneRule('tcp.dstport in {80 443} or udp.dstport == 53'));
    const one = runCli(['replay', capture, '--config', snap, '--format', 'json', '--no-labels', '--jobs', '1']);
    const three = runCli(['replay', capture, '--config', snap, '--format', 'json', '--no-labels', '--jobs', '3']);
    expect(three.status).toBe(0);
    expect(three.stderr).toBe('');
    expect(summary(three.stdout)).toEqual(summary(one.stdout));
    expect((JSON.parse(one.stdout) as { dropped: number }).dropped).toBeGreaterThan(0);
  });

  it('says why it runs on one thread when the replay cannot be cut', () => {
    const r = runCli(['replay', capture, '--config', writeSnapshot('jobs-nd.json', oneRule('udp.dstport > 0')), '--format', 'ndjson', '--no-labels', '--jobs', '2']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/--jobs 2: per-packet outputs are written in capture order, so it ran on one thread/);
  });
});

describe('npm start', () => {
  it('replays the bundled demo capture through the bundled demo snapshot', () => {
    const r = runCli(['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('allow-web');
    expect(r.stdout).toMatch(/drop/);
    expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.start).toBe('node bin/edgesim.js replay examples/demo.pcap --config examples/demo-snapshot.json');
  });
});
