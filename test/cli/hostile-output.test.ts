// Every line edgesim prints, over configurations, suites, captures and file names whose text was
// written to be run: GitHub's runner runs a line of a step's output (either stream) that starts with
// `::` once leading white space is trimmed, or that holds `##[` anywhere (actions/runner
// ActionCommand.TryParseV2 and TryParse), and a terminal obeys control characters. Every command is
// run (replay in each format, test, pin, trace, diff, lint in each format, explain, validate,
// inspect, match, synth, bench, fields, report, export and import against serve, and the errors each
// gives on hostile input); both streams are split at every line break a reader might honour (LF, CR,
// VT, FF, NEL, U+2028, U+2029) and no line may be a command, but the annotations `--format github`
// issues (well formed, escaped), and no control character may be printed but the line feed.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, runCliAsync, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Names written to be run by a runner or obeyed by a terminal, in every form found to reach an output. */
const HOSTILE = [
  '::error title=owned::pwned',
  'a\n::add-mask::secret',
  'b\r::stop-commands::tok',
  'c\r\n::warning::crlf',
  'esc\u001b]0;title\u0007\u001b[2J',
  'nul\u0000::error::nul',
  'ls\u2028::error::ls',
  'nel\u0085::notice::nel',
  'old ##[add-mask]v1',
  '\u00a0::error::nbsp',
  '\t::group::tab',
  '  ::endgroup::',
  '\u202e::error::rlo',
];
const h = (i: number): string => HOSTILE[i % HOSTILE.length]!;
/** a Rules-language string literal of hostile text, raw (the language has no escape for a control character) */
const lit = (i: number): string => `"${h(i)}"`;

const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** an annotation as review/workflow-commands.ts issues it: a level, escaped properties, a message */
const ANNOTATION = /^::(error|warning|notice)( (title|file|line|col|endLine|endColumn)=[^:,]*(,(title|file|line|col|endLine|endColumn)=[^:,]*)*)?::/;

/** The lines of `text` a runner would run as a command, but annotations when `annotations` allows them. */
function commandLines(text: string, annotations: boolean): string[] {
  return text.split(LINE_BREAK).filter((line) => (/^[\s\u0085]*::/.test(line) && !(annotations && ANNOTATION.test(line))) || line.includes('##['));
}

/**
 * Lines the last guard (terminal-text.ts LineGuard) had to break at their start: input text that
 * reached a line's start, but the engine's echo of an expression's line, which a caret line follows.
 */
function forgedLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.filter((line, i) => /^[\s\u0085]*\\u003a/.test(line) && !/^ *\^+( |$)/.test(lines[i + 1] ?? ''));
}

interface Run {
  name: string;
  args: string[];
  input?: string;
  /** --format github: its annotations are commands on purpose */
  annotations?: boolean;
}

/** What is wrong with what `run` printed: the lines a runner would run, a control character, an internal error. */
function problems(run: Run, r: CliResult): string[] {
  const found: string[] = [];
  for (const [stream, text] of Object.entries({ stdout: r.stdout, stderr: r.stderr })) {
    for (const line of commandLines(text, run.annotations === true)) found.push(`${run.name}: ${stream}: runs ${JSON.stringify(line)}`);
    for (const line of forgedLines(text)) found.push(`${run.name}: ${stream}: input text starts a line ${JSON.stringify(line)}`);
    const control = CONTROL.exec(text);
    if (control !== null) found.push(`${run.name}: ${stream}: control character in ${JSON.stringify(text.slice(Math.max(0, control.index - 40), control.index + 10))}`);
  }
  if (/internal error/.test(r.stderr) || r.status === 70) found.push(`${run.name}: ${r.stderr}`);
  return found;
}

/** Command-line arguments cannot hold NUL: it is given as SOH there. */
const argument = (a: string): string => a.replace(/\u0000/g, '\u0001');

let dir: string;
const files: Record<string, string> = {};

/** A file in `dir` named after hostile text. */
function hostileFile(name: string, ext: string, content: string | Buffer): string {
  const file = path.join(dir, `${name.replace(/[/\u0000]/g, '_')}${ext}`);
  writeFileSync(file, content);
  return file;
}

function hostileSnapshot(): Record<string, unknown> {
  const snap = JSON.parse(readFileSync('examples/demo-snapshot.json', 'utf8'));
  const ruleset = snap.rulesets[0];
  ruleset.name = h(0);
  ruleset.description = h(1);
  ruleset.rules.forEach((rule: Record<string, unknown>, i: number) => {
    rule.ref = `${h(i)}-${i}`;
    rule.description = h(i + 5);
  });
  const rules = ruleset.rules as Array<Record<string, unknown>>;
  // the same rule again after itself (lint: unreachable), and conditions that quote hostile text
  rules.push({ ...rules[7], ref: `${h(3)}-again` });
  rules.push({ ref: `${h(8)}-strings`, action: 'block', expression: `tcp.dstport == 8080 and (ip.src.country == ${lit(1)} or ip.dst.country == ${lit(4)})`, description: h(2) });
  snap.prefixes.forEach((p: Record<string, unknown>, i: number) => { p.comment = h(i + 2); });
  snap.allowlist.forEach((p: Record<string, unknown>, i: number) => { p.comment = h(i + 6); });
  snap.lists[0].description = h(9);
  snap.lists[0].items[0].comment = h(10);
  snap.syn_protection.rules[0].name = h(11);
  return snap;
}

let served: { child: ChildProcess; url: string } | undefined;

function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--in-memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ child, url }));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

beforeAll(async () => {
  dir = tempDir('edgesim-hostile-');
  const snap = hostileSnapshot();
  files.config = hostileFile(`${h(1)}${h(4)}`, '.json', JSON.stringify(snap, null, 2));
  files.plainConfig = path.join(dir, 'snapshot.json');
  writeFileSync(files.plainConfig, JSON.stringify(snap));
  files.capture = hostileFile(`${h(2)}${h(9)}`, '.pcap', readFileSync('examples/demo.pcap'));
  copyFileSync('examples/demo.pcap', path.join(dir, 'demo.pcap'));
  const refs = (snap.rulesets as Array<{ rules: Array<{ ref: string }> }>)[0]!.rules.map((r) => r.ref);
  const cases = [
    { name: h(0), packet: { 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.5', 'tcp.dstport': 22 }, expect: { verdict: 'drop', rule: refs[7] } },
    { name: h(1), packet: { 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.5', 'tcp.dstport': 22 }, expect: { verdict: 'pass', rule: refs[5] } },
    { name: h(4), packet: { 'ip.dst': '198.51.100.80', 'tcp.dstport': 2323 }, expect: { verdict: 'drop', rule: refs[6], matched: [refs[7]] } },
    { name: h(8), capture: 'demo.pcap', expect: { totals: { packets: 4526, pass: 1, drop: 1 }, by_rule: { [refs[2]!]: 3 } } },
    { name: h(9), space: { 'tcp.dstport': 22, 'ip.src': '198.51.100.0/24' }, expect: { verdict: 'pass', rule: refs[3] } },
  ];
  files.suite = hostileFile(`${h(3)}${h(6)}`, '.yaml', JSON.stringify({ config: path.basename(files.config), cases }, null, 2));
  files.packet = hostileFile(h(7), '.json', JSON.stringify({ 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.5', 'tcp.dstport': 22 }));
  // configurations each refused with a message that quotes its hostile text
  files.badExpression = hostileFile('bad-expression', '.json', JSON.stringify({ rulesets: [{ ...(snap.rulesets as object[])[0], rules: [{ ref: 'x', action: 'block', expression: `tcp.dstport == 1 and\n::error::expr ${h(4)}` }] }] }));
  files.badExpressionStart = hostileFile('bad-expression-start', '.json', JSON.stringify({ rulesets: [{ ...(snap.rulesets as object[])[0], rules: [{ ref: 'x', action: 'block', expression: '::error::expression' }] }] }));
  files.badRegex = hostileFile('bad-regex', '.json', JSON.stringify({ rulesets: [{ ...(snap.rulesets as object[])[0], rules: [{ ref: 'x', action: 'block', expression: 'ip.src.country matches "\n::error::(re"' }] }] }));
  files.badKey = hostileFile('bad-key', '.json', JSON.stringify({ [h(1)]: 1, rulesets: [{ name: 'r', kind: 'root', phase: 'edge_transit', rules: [], [h(0)]: true, [h(4)]: 2 }] }));
  files.badPrefix = hostileFile('bad-prefix', '.json', JSON.stringify({ prefixes: [{ prefix: h(1) }, { prefix: `10.0.0.1/24${h(2)}` }, { prefix: h(0) }] }));
  files.badListName = hostileFile('bad-list', '.json', JSON.stringify({ lists: [{ name: h(1), kind: 'ip', items: [] }], rulesets: [{ name: 'r', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'l', action: 'block', expression: `ip.src in $${h(0)}` }] }] }));
  files.badJson = hostileFile('bad-json', '.json', `{"rulesets": [\n::error::json ${h(4)}\n`);
  files.badYaml = hostileFile('bad-octorules', '.yaml', `edge_transit:\n  - ref: x\n    expression: "a\n::error::yaml\n  bad: [\n`);
  files.flowSpec = hostileFile(h(5), '.json', JSON.stringify({ flows: [{ name: h(0), kind: h(1) }] }));
  files.summary = path.join(dir, 'summary.json');
  runCli(['replay', files.capture, '--config', files.config, '--format', 'json', '--out', files.summary]);
  served = await serve();
});

afterAll(() => {
  served?.child.kill('SIGTERM');
});

function runs(): Run[] {
  const c = files.config!;
  const cap = files.capture!;
  return [
    ...['table', 'json', 'ndjson', 'csv', 'html'].map((format) => ({ name: `replay --format ${format}`, args: ['replay', cap, '--config', c, '--format', format, ...(format === 'ndjson' || format === 'csv' ? ['--fields', 'ip.src,ip.src.country'] : [])] })),
    { name: 'replay of a hostile capture name that does not exist', args: ['replay', `${cap}${h(0)}`, '--config', c] },
    { name: 'replay with a hostile --config name that does not exist', args: ['replay', cap, '--config', `${c}${h(3)}`] },
    ...['text', 'json', 'github'].map((format) => ({ name: `test --format ${format}`, args: ['test', files.suite!, '--format', format, '--coverage'], annotations: format === 'github' })),
    { name: 'test --junit -', args: ['test', files.suite!, '--junit', '-'] },
    { name: 'pin', args: ['pin', '--config', c] },
    { name: 'pin --capture', args: ['pin', '--config', c, '--capture', cap, '--out', path.join(dir, 'pinned.yaml')] },
    { name: 'trace (table)', args: ['trace', '--config', c, '--table', 'ip.src=198.51.100.7', 'ip.dst=203.0.113.5', 'tcp.dstport=22'] },
    { name: 'trace --json', args: ['trace', '--config', c, '--json', '--packet', files.packet!] },
    { name: 'trace --frame', args: ['trace', '--config', c, '--table', cap, '--frame', '3'] },
    { name: 'trace with a hostile field', args: ['trace', '--config', c, `${h(0)}=1`] },
    ...['text', 'json', 'ndjson', 'markdown'].map((format) => ({ name: `diff --format ${format}`, args: ['diff', cap, '--config', 'examples/demo-snapshot.json', '--against', c, '--format', format] })),
    ...['text', 'json', 'markdown'].map((format) => ({ name: `diff --static --format ${format}`, args: ['diff', '--static', 'examples/demo-snapshot.json', c, '--format', format] })),
    ...['text', 'json', 'sarif', 'github'].map((format) => ({ name: `lint --format ${format}`, args: ['lint', c, '--format', format], annotations: format === 'github' })),
    { name: 'lint --explain', args: ['lint', c, '--explain', `${h(3)}-again`] },
    { name: 'lint --explain of a hostile ref that is not there', args: ['lint', c, '--explain', h(0)] },
    { name: 'explain', args: ['explain', `tcp.dstport == 22 and ip.src.country == ${lit(1)}`] },
    { name: 'explain of a hostile expression', args: ['explain', `::error::x ${h(1)}`] },
    { name: 'explain --bpf', args: ['explain', '--bpf', `ip.src.country == ${lit(0)}`] },
    { name: 'explain --display-filter', args: ['explain', '--display-filter', `tcp.dstport == 22 or ip.src.country == ${lit(1)}`] },
    ...HOSTILE.map((text, i) => ({ name: `validate ${JSON.stringify(text)}`, args: ['validate', ...(i % 3 === 1 ? ['--legacy'] : i % 3 === 2 ? ['--json'] : []), `tcp.dstport == 1 and ${text}`] })),
    { name: 'validate of a hostile line start', args: ['validate', `tcp.dstport == 1 and\n::error::validate ${h(0)}`] },
    { name: 'validate of a hostile regex', args: ['validate', `ip.src.country matches "${h(1)}(x"`] },
    { name: 'validate --scheme hostile', args: ['validate', '--scheme', h(0), 'tcp.dstport == 1'] },
    { name: 'inspect', args: ['inspect', cap, '--limit', '20'] },
    { name: 'match', args: ['match', cap, `tcp.dstport == 22 or ip.src.country == ${lit(2)}`, '--config', c] },
    { name: 'match --count of a hostile expression', args: ['match', cap, `::error::m ${h(1)}`, '--count'] },
    { name: 'synth of a hostile scenario name', args: ['synth', h(0), '--out', path.join(dir, 's.pcap')] },
    { name: 'synth of a hostile flow spec', args: ['synth', files.flowSpec!, '--out', path.join(dir, 's.pcap')] },
    { name: 'synth --print-spec', args: ['synth', 'mixed', '--print-spec', '--servers', `203.0.113.0/24,${h(1)}`] },
    { name: 'bench', args: ['bench', cap, '--config', c, '--runs', '1', '--min-time', '1', '--no-peers', '--limit', '500'] },
    { name: 'bench --json', args: ['bench', cap, '--config', c, '--runs', '1', '--min-time', '1', '--no-peers', '--limit', '500', '--json'] },
    { name: 'fields', args: ['fields'] },
    { name: 'fields of a hostile name', args: ['fields', h(1)] },
    { name: 'report', args: ['report', files.summary!] },
    { name: 'an unknown hostile command', args: [h(0)] },
    { name: 'an unknown hostile option', args: ['replay', cap, `--${h(1)}`] },
    { name: 'a hostile choice', args: ['replay', cap, '--format', h(0)] },
    // configurations refused, each quoting its hostile text in the message
    ...(['badExpression', 'badExpressionStart', 'badRegex', 'badKey', 'badPrefix', 'badListName', 'badJson', 'badYaml'] as const).flatMap((bad) => [
      { name: `replay of ${bad}`, args: ['replay', cap, '--config', files[bad]!] },
      { name: `lint of ${bad}`, args: ['lint', files[bad]!] },
      { name: `lint --format github of ${bad}`, args: ['lint', files[bad]!, '--format', 'github'], annotations: true },
    ]),
    { name: 'configuration on standard input', args: ['lint', '--config', '-'], input: `{"rulesets": [{"name": ${JSON.stringify(h(0))}, "kind": "root", "phase": "edge_transit", "rules": [{"ref": ${JSON.stringify(h(1))}, "action": "block", "expression": "::error::stdin"}]}]}` },
  ];
}

describe('no line a CI runner would run, and no control character, in any output', () => {
  it('every command over hostile names, on both streams', () => {
    const found = runs().flatMap((run) => problems(run, runCli(run.args.map(argument), run.input === undefined ? {} : { input: run.input })));
    expect(found).toEqual([]);
    // about 70 processes one after another: 40-60 s on a quiet machine, 100 s seen on CI's 2 shared cores
  }, 300_000);

  it('a suite pinned from hostile names reads back and passes: its comments and names stay inside their lines', () => {
    const pinned = path.join(dir, 'round-trip.yaml');
    // a ruleset name with a CR (a YAML comment line ends there) and one with an escape sequence
    const snap = hostileSnapshot() as { rulesets: Array<{ name: string }> };
    snap.rulesets[0]!.name = `${h(2)}${h(4)}`;
    const config = path.join(dir, 'round-trip.json');
    writeFileSync(config, JSON.stringify(snap));
    const pin = runCli(['pin', '--config', config, '--out', pinned]);
    expect(pin.status).toBe(0);
    expect(CONTROL.exec(readFileSync(pinned, 'utf8'))).toBeNull();
    const r = runCli(['test', pinned]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(problems({ name: 'test of the pinned suite', args: [] }, r)).toEqual([]);
  });

  it('import and export against serve', async () => {
    const api = ['--api', served!.url, '--account', 'acc1', '--token', 't'];
    const found: string[] = [];
    for (const run of [
      { name: 'import --dry-run', args: ['import', files.config!, ...api, '--dry-run'] },
      { name: 'import', args: ['import', files.plainConfig!, ...api] },
      { name: 'export', args: ['export', ...api] },
      { name: 'replay --api', args: ['replay', files.capture!, ...api, '--format', 'table'] },
      { name: 'import of a hostile refusal', args: ['import', files.badPrefix!, ...api] },
    ]) found.push(...problems(run, await runCliAsync(run.args)));
    expect(found).toEqual([]);
  });
});
