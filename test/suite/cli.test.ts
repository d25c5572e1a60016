// `edgesim test` end to end on a corpus capture (tcpdump's afs.pcap, AFS over UDP): a suite generated
// from a replay — one capture case with every frame's verdict, and a packet case rebuilt from the
// decoded fields of every UDP frame — passes in full; planted wrong expectations fail, and only
// those; the JUnit file parses and agrees with the JSON report; golden files round-trip with --update.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { counted } from '../../src/numbers.js';
import { runCli, SHARED } from '../helpers/cli.js';
import { tempDir } from './helpers.js';

const CAPTURE = path.join(SHARED, 'corpus/tcpdump-tests/afs.pcap');

const CONFIG = {
  rulesets: [
    {
      name: 'afs',
      phase: 'edge_transit',
      kind: 'root',
      rules: [
        { ref: 'log-us', action: 'log', expression: 'ip.src.country == "US"' },
        { ref: 'log-fileserver', action: 'log', expression: 'udp.dstport == 7000' },
        { ref: 'block-big', action: 'block', expression: 'ip.len > 1000' },
        { ref: 'allow-callbacks', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'udp.srcport == 7000 and ip.dst in { 131.151.32.0/24 }' },
        { ref: 'block-client-21', action: 'block', expression: 'ip.src == 131.151.32.21 and udp.dstport == 7000' },
        { ref: 'block-short-ttl', action: 'block', expression: 'ip.ttl < 30' },
      ],
    },
  ],
};

interface Line {
  frame: number;
  verdict: 'pass' | 'drop';
  stage: string | null;
  rule: string | null;
  reason: string | null;
  matched: string[];
}

type Fields = Record<string, string | number | boolean>;

function ndjson<T>(text: string): T[] {
  return text.trim().split('\n').map((l) => JSON.parse(l) as T);
}

let dir: string;
let replayed: Line[];
let decoded: Fields[];

beforeAll(() => {
  dir = tempDir();
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(CONFIG));
  const r = runCli(['replay', CAPTURE, '--config', path.join(dir, 'config.json'), '--format', 'ndjson']);
  expect(r.status).toBe(0);
  replayed = ndjson<Line>(r.stdout);
  const i = runCli(['inspect', CAPTURE, '--no-lookups']);
  expect(i.status).toBe(0);
  decoded = ndjson<Fields>(i.stdout);
  expect(decoded).toHaveLength(replayed.length);
});

const PACKET_FIELDS = ['ip.src', 'ip.dst', 'ip.proto', 'ip.ttl', 'ip.len', 'udp.srcport', 'udp.dstport'];

/** The suite a replay implies: the capture's every frame, and each UDP frame rebuilt as a packet. */
function generatedSuite(): { config: string; cases: unknown[] } {
  const frames = Object.fromEntries(replayed.map((l) => [l.frame, { verdict: l.verdict, rule: l.rule, stage: l.stage, matched: l.matched }]));
  const byRule: Record<string, number> = {};
  for (const l of replayed) if (l.rule !== null) byRule[l.rule] = (byRule[l.rule] ?? 0) + 1;
  const packets = decoded
    .filter((f) => f['udp.dstport'] !== undefined)
    .map((f) => {
      const l = replayed[(f.frame as number) - 1]!;
      return {
        name: `frame ${f.frame as number} rebuilt`,
        packet: Object.fromEntries(PACKET_FIELDS.map((k) => [k, f[k]])),
        expect: { verdict: l.verdict, rule: l.rule, matched: l.matched },
      };
    });
  const drops = replayed.filter((l) => l.verdict === 'drop').length;
  return {
    config: 'config.json',
    cases: [
      { name: 'afs capture', capture: CAPTURE, expect: { totals: { packets: replayed.length, pass: replayed.length - drops, drop: drops }, frames, by_rule: byRule } },
      ...packets,
    ],
  };
}

interface JsonReport {
  passed: number;
  failed: number;
  errors: number;
  cases: Array<{ name: string; status: string; message: string }>;
}

function runSuite(suite: object, extra: string[] = [], name = 'suite.yaml'): { status: number | null; stdout: string; json: JsonReport; junit: string } {
  const file = path.join(dir, name);
  writeFileSync(file, stringify(suite));
  const json = path.join(dir, 'report.json');
  const junit = path.join(dir, 'report.xml');
  const r = runCli(['test', file, '--json', json, '--junit', junit, ...extra]);
  expect(r.stderr).toBe('');
  return { status: r.status, stdout: r.stdout, json: JSON.parse(readFileSync(json, 'utf8')) as JsonReport, junit: readFileSync(junit, 'utf8') };
}

describe('edgesim test on a corpus capture', () => {
  it('the rules decide a real mix of this capture (the test is not vacuous)', () => {
    const rules = new Set(replayed.map((l) => l.rule));
    expect(rules).toContain('block-client-21');
    expect(rules).toContain('allow-callbacks');
    expect(rules).toContain(null);
    expect(replayed.some((l) => l.matched.includes('log-fileserver'))).toBe(true);
  });

  it('a suite generated from a replay passes in full', () => {
    const suite = generatedSuite();
    const r = runSuite(suite);
    expect(r.status).toBe(0);
    expect(r.json).toMatchObject({ failed: 0, errors: 0, passed: suite.cases.length });
    expect(suite.cases.length).toBeGreaterThan(400);
    expect(r.stdout.trim().split('\n').filter((l) => l.startsWith('PASS '))).toHaveLength(suite.cases.length);
  });

  it('planted wrong expectations fail, and only those; JUnit parses and agrees with the JSON report', () => {
    const suite = generatedSuite() as { config: string; cases: Array<{ name: string; expect: Record<string, unknown> }> };
    const flip = (v: unknown): string => (v === 'pass' ? 'drop' : 'pass');
    const planted = [5, 50, 200].map((i) => suite.cases[i]!);
    for (const c of planted) c.expect.verdict = flip(c.expect.verdict);
    planted.push(suite.cases[300]!);
    expect((suite.cases[300]!.expect.matched as string[]).length).toBeGreaterThan(0);
    suite.cases[300]!.expect.matched = [];
    const capture = suite.cases[0]!.expect as { frames: Record<string, { verdict: string }>; by_rule: Record<string, number> };
    capture.frames['42']!.verdict = flip(capture.frames['42']!.verdict);
    planted.push(suite.cases[0]!);

    const r = runSuite(suite);
    expect(r.status).toBe(1);
    const failed = r.json.cases.filter((c) => c.status === 'failed').map((c) => c.name);
    expect(failed.sort()).toEqual(planted.map((c) => c.name).sort());
    expect(r.json).toMatchObject({ failed: planted.length, errors: 0, passed: suite.cases.length - planted.length });
    expect(r.json.cases.find((c) => c.name === 'afs capture')!.message).toMatch(/^frame 42: verdict: expected (pass|drop), got (pass|drop)$/);
    // the failure shows the trace of the packet through every rule
    expect(r.stdout).toContain('--- afs capture');
    expect(r.stdout).toMatch(/step_name +type +action +matched +decided +expression/);

    expect(XMLValidator.validate(r.junit)).toBe(true);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(r.junit) as {
      testsuites: { tests: string; failures: string; errors: string; testsuite: Array<{ testcase: Array<{ name: string; failure?: { message: string } }> }> };
    };
    const cases = xml.testsuites.testsuite.flatMap((s) => s.testcase);
    expect(Number(xml.testsuites.tests)).toBe(r.json.cases.length);
    expect(Number(xml.testsuites.failures)).toBe(r.json.failed);
    expect(Number(xml.testsuites.errors)).toBe(r.json.errors);
    expect(cases).toHaveLength(r.json.cases.length);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    expect(cases.filter((c) => c.failure !== undefined).map((c) => c.name).sort()).toEqual(failed.sort());
    for (const c of cases.filter((k) => k.failure !== undefined)) expect(c.failure!.message).toBe(r.json.cases.find((j) => j.name === c.name)!.message);
  });

  it('--update round trip: a missing golden fails saying how to create it; --update writes golden files only and counts changed frames', () => {
    const suite = { config: 'config.json', cases: [{ name: 'golden afs', capture: CAPTURE, expect: { golden: 'afs.verdicts.ndjson' } }] };
    const golden = path.join(dir, 'afs.verdicts.ndjson');
    const missing = runSuite(suite, [], 'golden.yaml');
    expect(missing.status).toBe(1);
    expect(missing.json.cases[0]!.message).toBe(`golden afs.verdicts.ndjson does not exist: create it from the current results with \`edgesim test ${path.join(dir, 'golden.yaml')} --update\``);

    const created = runSuite(suite, ['--update'], 'golden.yaml');
    expect(created.status).toBe(0);
    expect(created.stdout).toContain(`golden afs.verdicts.ndjson: created (${replayed.length} frames)`);
    expect(created.stdout).toMatch(/\n1 golden file updated: afs\.verdicts\.ndjson\n$/);
    // the golden file is exactly replay's NDJSON
    const r = runCli(['replay', CAPTURE, '--config', path.join(dir, 'config.json'), '--format', 'ndjson']);
    expect(readFileSync(golden, 'utf8')).toBe(r.stdout);
    expect(runSuite(suite, [], 'golden.yaml').status).toBe(0);

    // change the configuration: the golden no longer holds; --update counts and rewrites only it
    const changed = structuredClone(CONFIG);
    changed.rulesets[0]!.rules.find((x) => x.ref === 'block-client-21')!.action = 'log';
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(changed));
    try {
      const expected = replayed.filter((l) => l.rule === 'block-client-21').length;
      const failing = runSuite(suite, [], 'golden.yaml');
      expect(failing.status).toBe(1);
      expect(failing.json.cases[0]!.message).toMatch(new RegExp(`^golden afs.verdicts.ndjson: ${counted(expected, 'frame')} differ${expected === 1 ? 's' : ''}; first, frame \\d+: expected .*"rule":"block-client-21".*, got .*`));
      const suiteBefore = readFileSync(path.join(dir, 'golden.yaml'), 'utf8');
      const configBefore = statSync(path.join(dir, 'config.json')).mtimeMs;
      const updated = runSuite(suite, ['--update'], 'golden.yaml');
      expect(updated.status).toBe(0);
      expect(updated.stdout).toContain(`golden afs.verdicts.ndjson: ${counted(expected, 'frame')} changed, rewritten`);
      expect(updated.junit).toContain(`<system-out>golden afs.verdicts.ndjson: ${counted(expected, 'frame')} changed, rewritten</system-out>`);
      expect(readFileSync(path.join(dir, 'golden.yaml'), 'utf8')).toBe(suiteBefore);
      expect(statSync(path.join(dir, 'config.json')).mtimeMs).toBe(configBefore);
      expect(runSuite(suite, [], 'golden.yaml').status).toBe(0);
      const unchanged = runSuite(suite, ['--update'], 'golden.yaml').stdout;
      expect(unchanged).toContain('golden afs.verdicts.ndjson: 0 frames changed');
      expect(unchanged).toMatch(/\n0 golden files updated\n$/);
    } finally {
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(CONFIG));
    }
  });

  it('--update does not rewrite the golden of a case that fails for another reason, unless --force', () => {
    const golden = path.join(dir, 'forced.verdicts.ndjson');
    const good = { config: 'config.json', cases: [{ name: 'golden afs', capture: CAPTURE, expect: { golden: 'forced.verdicts.ndjson' } }] };
    expect(runSuite(good, ['--update'], 'forced.yaml').status).toBe(0);
    const before = readFileSync(golden, 'utf8');
    const changed = structuredClone(CONFIG);
    changed.rulesets[0]!.rules.find((x) => x.ref === 'block-client-21')!.action = 'log';
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(changed));
    try {
      const wrongTotals = { ...good, cases: [{ ...good.cases[0]!, expect: { golden: 'forced.verdicts.ndjson', totals: { packets: 1 } } }] };
      const refused = runSuite(wrongTotals, ['--update'], 'forced.yaml');
      expect(refused.status).toBe(1);
      expect(refused.json.cases[0]!.message).toBe(`totals.packets: expected 1, got ${replayed.length} (and 1 more)`);
      expect(refused.stdout).toContain(`golden forced.verdicts.ndjson not rewritten: the case fails for another reason too (totals.packets: expected 1, got ${replayed.length}); --update --force rewrites it anyway`);
      expect(refused.stdout).toMatch(/\n0 golden files updated\n$/);
      expect(readFileSync(golden, 'utf8')).toBe(before);
      const forced = runSuite(wrongTotals, ['--update', '--force'], 'forced.yaml');
      expect(forced.status).toBe(1);
      expect(forced.stdout).toMatch(/\n1 golden file updated: forced\.verdicts\.ndjson\n$/);
      expect(readFileSync(golden, 'utf8')).not.toBe(before);
      const alone = runCli(['test', path.join(dir, 'forced.yaml'), '--force']);
      expect([alone.status, alone.stderr]).toEqual([2, 'edgesim: --force goes with --update\n']);
    } finally {
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(CONFIG));
    }
  });

  it('reads a suite from standard input with -, its paths relative to the working folder', () => {
    const suite = readFileSync('examples/demo-suite.yaml', 'utf8');
    const fromFile = runCli(['test', 'demo-suite.yaml'], { cwd: path.resolve('examples') });
    const fromStdin = runCli(['test', '-'], { cwd: path.resolve('examples'), input: suite });
    expect(fromFile.status, fromFile.stdout).toBe(0);
    expect(fromStdin.status, fromStdin.stdout).toBe(0);
    const untimed = (text: string) => text.replace(/\(\d+\.\d+ ?s\)/g, '(time)').replace(/ in \d+\.\d+ ?s/g, ' in (time)');
    expect(untimed(fromStdin.stdout)).toBe(untimed(fromFile.stdout).replaceAll('demo-suite.yaml', 'standard input'));
    const twice = runCli(['test', '-', '-'], { input: suite });
    expect(twice.status).toBe(2);
    expect(twice.stderr).toBe('edgesim: standard input (-) can be read once: give - as one suite only\n');
  });

  it('--strict turns warnings into failures', () => {
    // a rule reading ASNs without an ASN database is a warning: the field is absent
    const config = { rulesets: [{ name: 'r', phase: 'edge_transit', kind: 'root', rules: [{ ref: 'asn', action: 'block', expression: 'ip.src.asnum == 64500' }] }] };
    const suite = { config, cases: [{ name: 'asn', packet: {}, expect: { verdict: 'pass' } }] };
    expect(runSuite(suite, [], 'strict.yaml').status).toBe(0);
    const strict = runSuite(suite, ['--strict'], 'strict.yaml');
    expect(strict.status).toBe(1);
    expect(strict.json.cases[0]!.message).toMatch(/^warning \(--strict\): .*ASN/);

    // frames of a link type the decoder does not know pass uninspected: a warning, a failure under --strict
    const linkType = { config: 'config.json', cases: [{ name: '802.15.4', capture: path.join(SHARED, 'corpus/tcpdump-tests/802_15_4-data.pcap'), expect: { totals: { pass: 1 } } }] };
    expect(runSuite(linkType, [], 'strict.yaml').status).toBe(0);
    const strictLink = runSuite(linkType, ['--strict'], 'strict.yaml');
    expect(strictLink.status).toBe(1);
    expect(strictLink.json.cases[0]!.message).toBe('warning (--strict): 1 packet: unsupported link type 195 (first: frame 1)');
  });
});
