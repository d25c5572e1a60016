// Captures as the vendor gives them, one file per server or one capture cut in parts: replay, diff,
// match, inspect, bench and test's capture cases take several captures and read them merged by time.
// The parts `editcap` cuts from the demo capture (in turn, or interleaved; pcap and pcapng; one part
// of another link type) replay exactly as the capture itself, protection included (it sees one
// stream), and as the file `mergecap` makes of them; every per-packet record names its file and its
// frame in that file, and the report counts per file.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCapture } from '../../src/capture/reader.js';
import { runCli } from '../helpers/cli.js';
import { runTool } from '../helpers/tshark.js';
import { tempDir } from '../helpers/temp-dir.js';
import { pcapFile, type PcapRecord } from '../capture/helpers/build.js';

const DEMO = 'examples/demo.pcap';
const CONFIG = 'examples/demo-snapshot.json';
const LINKTYPE_RAW = 101;
/** frames of the demo kept in part b (the rest in part a) */
const RANGES = ['1-100', '201-300', '401-500', '1001-1010', '1500-3000', '4000-4100'];

function tool(name: string, args: string[]): void {
  const r = runTool(name, args);
  if (r.status !== 0) throw new Error(`${name} ${args.join(' ')}: ${r.stderr}`);
}

/** standard output of a command that succeeds (with ndjson, replay's summary line goes to stderr) */
function ok(args: string[]): string {
  const r = runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** the frame numbers of the demo in part b, in order */
function inRanges(): Set<number> {
  const frames = new Set<number>();
  for (const r of RANGES) {
    const [from, to] = r.split('-').map(Number) as [number, number];
    for (let f = from; f <= to; f++) frames.add(f);
  }
  return frames;
}

/** The demo's frame each (file, frame) of a merge of a.pcap and b.pcapng (the ranges) is. */
function demoFrame(): (file: number, frame: number) => number {
  const b = inRanges();
  const ofFile: number[][] = [[], []];
  for (let f = 1; f <= 4526; f++) ofFile[b.has(f) ? 1 : 0]!.push(f);
  return (file, frame) => ofFile[file]![frame - 1]!;
}

/** A replay's JSON report without what says which file was read and how fast. */
function counts(json: string): Record<string, unknown> {
  const { capture: _c, elapsedSeconds: _e, packetsPerSecond: _p, configuration: _f, warnings: _w, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return rest;
}

const ndjson = (text: string): Array<Record<string, unknown>> => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
const withoutPlace = ({ frame: _f, file: _g, ...rest }: Record<string, unknown>): Record<string, unknown> => rest;

let dir: string;
let a: string;
let b: string;
let parts: string[];
let raw: string;

beforeAll(async () => {
  dir = tempDir('edgesim-merged-');
  a = path.join(dir, 'a.pcap');
  b = path.join(dir, 'b.pcapng');
  tool('editcap', ['-F', 'pcap', DEMO, a, ...RANGES]);
  tool('editcap', ['-F', 'pcapng', '-r', DEMO, b, ...RANGES]);
  tool('editcap', ['-F', 'pcap', '-c', '2000', DEMO, path.join(dir, 'part.pcap')]);
  parts = runTool('sh', ['-c', `ls ${dir}/part_*.pcap`]).stdout.trim().split('\n');
  // part b again, as raw IP (link type 101): each frame without its Ethernet header
  const records: PcapRecord[] = [];
  await readCapture(b, (rec) => records.push({ sec: rec.tsSec, frac: rec.tsNsec / 1000, data: rec.data.slice(rec.dataOff + 14, rec.dataOff + rec.capLen) }));
  raw = path.join(dir, 'b-raw.pcap');
  writeFileSync(raw, pcapFile({ linkType: LINKTYPE_RAW }, records));
});

describe('replay of several captures', () => {
  it('replays the parts editcap cuts from a capture as the capture itself, in every verdict and count (protection on)', () => {
    const original = ok(['replay', DEMO, '--config', CONFIG, '--format', 'json', '--no-labels']);
    for (const files of [parts, [a, b]]) {
      const merged = ok(['replay', ...files, '--config', CONFIG, '--format', 'json']);
      expect(counts(merged)).toEqual(counts(original));
      const capture = JSON.parse(merged).capture as { file: string; files: Array<{ file: string; packets: number; passed: number; dropped: number }> };
      expect(capture.file).toBe(files.join(' + '));
      expect(capture.files.map((f) => f.file)).toEqual(files);
      expect(capture.files.reduce((n, f) => n + f.packets, 0)).toBe(4526);
      expect(capture.files.reduce((n, f) => n + f.dropped, 0)).toBe(JSON.parse(original).dropped);
    }
  });

  it("names each packet's file and its frame in that file, the verdicts being the capture's own", () => {
    const original = ndjson(ok(['replay', DEMO, '--config', CONFIG, '--format', 'ndjson', '--no-labels', '--no-progress']));
    const r = runCli(['replay', a, b, '--config', CONFIG, '--format', 'ndjson']);
    expect(r.status).toBe(0);
    const merged = ndjson(r.stdout);
    expect(merged.map(withoutPlace)).toEqual(original.map(withoutPlace));
    const frameOf = demoFrame();
    expect(merged.map((m) => frameOf(m.file === a ? 0 : 1, m.frame as number))).toEqual(original.map((o) => o.frame));
    expect(Object.keys(merged[0]!).slice(0, 3)).toEqual(['frame', 'file', 'time']);
    expect(r.stderr).toMatch(/^edgesim: 4,526 packets: \d[\d,]* passed, \d[\d,]* dropped\n$/);
    // csv: a file column after the frame
    const csv = runCli(['replay', a, b, '--config', CONFIG, '--format', 'csv']).stdout.split('\n');
    expect(csv[0]).toMatch(/^frame,file,time,verdict,/);
    expect(csv[1]!.startsWith(`${merged[0]!.frame},${b},1704067200.013442000,`)).toBe(true);
  });

  it('replays captures of mixed formats and link types as the file mergecap makes of them', () => {
    // mergecap takes the file given last on equal times; edgesim the first: mergecap of the files reversed
    const merged = path.join(dir, 'mergecap.pcapng');
    tool('mergecap', ['-w', merged, raw, a]);
    const one = ok(['replay', merged, '--config', CONFIG, '--format', 'json']);
    const two = ok(['replay', a, raw, '--config', CONFIG, '--format', 'json']);
    expect(counts(two)).toEqual(counts(one));
    expect(JSON.parse(two).capture.linkTypes).toEqual([1, LINKTYPE_RAW]);
    expect(JSON.parse(two).capture.format).toBe('pcap');
    const lines = ndjson(ok(['replay', a, raw, '--config', CONFIG, '--format', 'ndjson', '--no-progress']));
    const reference = ndjson(ok(['replay', merged, '--config', CONFIG, '--format', 'ndjson', '--no-progress']));
    expect(lines.map(withoutPlace)).toEqual(reference.map(withoutPlace));
  });

  it('counts each file in the table', () => {
    const table = ok(['replay', a, b, '--config', CONFIG]);
    expect(table.split('\n')[0]).toMatch(new RegExp(`^${a.replace(/[.+]/g, '\\$&')} \\+ ${b.replace(/[.+]/g, '\\$&')} \\(pcap\\+pcapng\\): 4,526 packets`));
    expect(table).toMatch(/capture \(merged by time\)/);
    expect(table).toContain('a.pcap');
    expect(table).toMatch(/b\.pcapng\s+│ pcapng\s+│ 1,912 /);
  });

  it('says in one line that --jobs runs several captures on one thread, with the same report', () => {
    const r = runCli(['replay', ...parts, '--config', 'examples/demo-snapshot.json', '--format', 'json', '--jobs', '2']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toContain('--jobs 2: several captures are merged by time, on one thread, so it ran on one thread');
    expect(counts(r.stdout)).toEqual(counts(ok(['replay', DEMO, '--config', CONFIG, '--format', 'json', '--no-labels'])));
  });

  it('refuses standard input given twice, and a missing capture among several, before writing any output', () => {
    const twice = runCli(['replay', '-', '-', '--config', CONFIG]);
    expect(twice.stderr).toBe('edgesim: - (standard input) is given more than once: it can be read once\n');
    expect(twice.status).toBe(2);
    const out = path.join(dir, 'never.ndjson');
    const missing = path.join(dir, 'missing.pcap');
    const r = runCli(['replay', a, missing, '--config', CONFIG, '--format', 'ndjson', '--out', out]);
    expect(r.stderr).toBe(`edgesim: ${missing}: cannot open: no such file\n`);
    expect(r.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    const clash = runCli(['replay', a, b, '--config', CONFIG, '--format', 'ndjson', '--out', b]);
    // one of several captures is named with its path
    expect(clash.stderr).toBe(`edgesim: --out ${b}: the same file as the capture ${b}; give each output its own file\n`);
  });
});

describe('the other commands on several captures', () => {
  it('match prints FILE:FRAME and counts as on the capture itself', () => {
    const expr = 'tcp.flags.syn and not tcp.flags.ack';
    const original = ok(['match', DEMO, expr]).trim().split('\n').map(Number);
    const merged = ok(['match', a, b, expr]).trim().split('\n');
    const frameOf = demoFrame();
    expect(merged.map((line) => {
      const at = line.lastIndexOf(':');
      return frameOf(line.slice(0, at) === a ? 0 : 1, Number(line.slice(at + 1)));
    })).toEqual(original);
    expect(ok(['match', a, b, expr, '--count'])).toBe(`${original.length}\n`);
    const missing = runCli(['match', a]);
    expect(missing.stderr).toMatch(/^edgesim: missing required argument 'expression'\n/);
    expect(missing.status).toBe(2);
  });

  it('inspect names each line\'s file, the fields being the capture\'s own', () => {
    const original = ndjson(ok(['inspect', DEMO, '--limit', '300']));
    const merged = ndjson(ok(['inspect', a, b, '--limit', '300']));
    expect(merged.map(withoutPlace)).toEqual(original.map(withoutPlace));
    expect(merged.slice(0, 101).map((m) => m.file)).toEqual([...Array<string>(100).fill(b), a]);
  });

  it('diff finds the same changes as on the capture itself, naming frames FILE:FRAME', () => {
    const after = path.join(dir, 'after.json');
    const snapshot = JSON.parse(readFileSync(CONFIG, 'utf8')) as { rulesets: Array<{ rules: Array<{ enabled?: boolean }> }> };
    snapshot.rulesets[0]!.rules[0]!.enabled = false;
    writeFileSync(after, JSON.stringify(snapshot));
    const original = runCli(['diff', DEMO, '--config', CONFIG, '--against', after, '--format', 'json']);
    const merged = runCli(['diff', a, b, '--config', CONFIG, '--against', after, '--format', 'json']);
    expect(merged.status).toBe(original.status);
    const [o, m] = [JSON.parse(original.stdout), JSON.parse(merged.stdout)];
    expect(m.changed).toBe(o.changed);
    expect(m.changed).toBeGreaterThan(0);
    expect(m.groups.map((g: { packets: number }) => g.packets)).toEqual(o.groups.map((g: { packets: number }) => g.packets));
    const frameOf = demoFrame();
    for (const [i, g] of (m.groups as Array<{ frames: number[]; files: string[] }>).entries()) {
      expect(g.frames.map((f, k) => frameOf(g.files[k] === a ? 0 : 1, f))).toEqual(o.groups[i].frames);
    }
    const lines = ndjson(runCli(['diff', a, b, '--config', CONFIG, '--against', after, '--format', 'ndjson']).stdout);
    expect(lines.length).toBe(o.changed);
    expect(Object.keys(lines[0]!).slice(0, 3)).toEqual(['frame', 'file', 'time']);
    expect(runCli(['diff', a, b, '--config', CONFIG, '--against', after]).stdout).toMatch(new RegExp(`${b.replace(/[.+]/g, '\\$&')}:\\d+`));
  });

  it('bench measures the captures merged, tcpdump and tshark reading them one after the other', () => {
    const r = runCli(['bench', a, b, '--config', CONFIG, '--json', '--runs', '1', '--min-time', '1']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.packets).toBe(4526);
    expect(report.input).toBe(`${a} + ${b}`);
    expect(report.peers.map((p: { tool: string }) => p.tool)).toEqual(['tcpdump', 'tshark']);
  });

  it("test's capture cases take a list of captures, FILE:N frames and a golden file that names each frame's file", () => {
    const suiteDir = tempDir('edgesim-merged-suite-');
    tool('cp', [a, path.join(suiteDir, 'a.pcap')]);
    tool('cp', [b, path.join(suiteDir, 'b.pcapng')]);
    tool('cp', [CONFIG, path.join(suiteDir, 'config.json')]);
    const original = JSON.parse(ok(['replay', DEMO, '--config', CONFIG, '--format', 'json', '--no-labels']));
    const verdicts = ndjson(ok(['replay', DEMO, '--config', CONFIG, '--format', 'ndjson', '--no-labels', '--no-progress']));
    const frameOf = demoFrame();
    // frame 1 of b.pcapng is the demo's frame 1; frame 1 of a.pcap its frame 101
    const suite = path.join(suiteDir, 'suite.yaml');
    writeFileSync(suite, [
      'config: config.json',
      'cases:',
      '  - name: the servers\' captures',
      '    capture: [a.pcap, b.pcapng]',
      '    expect:',
      `      totals: {packets: 4526, pass: ${original.passed}, drop: ${original.dropped}}`,
      `      frames: {"b.pcapng:1": ${verdicts[frameOf(1, 1) - 1]!.verdict}, "a.pcap:1": ${verdicts[frameOf(0, 1) - 1]!.verdict}}`,
      '      golden: merged.verdicts.ndjson',
      '',
    ].join('\n'));
    const update = runCli(['test', suite, '--update']);
    expect(update.status, update.stdout + update.stderr).toBe(0);
    const golden = ndjson(readFileSync(path.join(suiteDir, 'merged.verdicts.ndjson'), 'utf8'));
    expect(golden.map(withoutPlace)).toEqual(verdicts.map(withoutPlace));
    expect(new Set(golden.map((g) => g.file))).toEqual(new Set(['a.pcap', 'b.pcapng']));
    const run = runCli(['test', suite]);
    expect(run.status, run.stdout).toBe(0);
    // a frame beyond a file's end, and a key that names no file of the case
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('"a.pcap:1"', '"a.pcap:9999"'));
    expect(runCli(['test', suite]).stdout).toContain('frame a.pcap:9999: a.pcap has only 2,614 packets');
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('"a.pcap:9999"', '"c.pcap:1"'));
    const bad = runCli(['test', suite]);
    expect(bad.status).toBe(2);
    expect(bad.stdout + bad.stderr).toContain('expected FILE:N, frame N of one of the case\'s captures (a.pcap, b.pcapng)');
  });
});
