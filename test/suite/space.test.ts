// `space:` cases in `edgesim test`: proved for every packet of the space, refuted with a witness
// packet the firewall really decides otherwise, and a space that cannot be read is a suite error.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { witnessRecord, type Witness } from '../../src/analysis/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { createListRegistry } from '../../src/data/lists.js';
import { Firewall, FirewallResult } from '../../src/firewall/firewall.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from './helpers.js';

const SNAPSHOT = path.join(ROOT, 'examples/demo-snapshot.json');

function suite(cases: string): string {
  const file = path.join(tempDir(), 'space.yaml');
  writeFileSync(file, `config: ${SNAPSHOT}\ncases:\n${cases}`);
  return file;
}

describe('space cases', () => {
  it('pass when every packet holds and fail with a witness the firewall decides otherwise', () => {
    const file = suite(`  - name: telnet from 10/8
    space: {ip.src: [10.0.0.0/8], ip.proto: tcp, tcp.dstport: [23, 2323]}
    expect: {verdict: drop, rule: block-telnet}
  - name: telnet from anywhere
    space: {ip.proto: tcp, tcp.dstport: [23]}
    expect: {verdict: drop}
`);
    const json = path.join(path.dirname(file), 'r.json');
    const r = runCli(['test', file, '--json', json]);
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: Array<{ name: string; status: string; message: string; kind: string }> };
    expect(report.cases.map((c) => [c.kind, c.status])).toEqual([['space', 'passed'], ['space', 'failed']]);
    const witness = JSON.parse(/for packet (\{.*\})$/.exec(report.cases[1]!.message)![1]!) as Witness;
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Snapshot;
    const lists = createListRegistry({ accountLists: snapshot.lists });
    const fw = Firewall.compile(snapshot.rulesets!, { lists: (n) => lists.resolve(n) });
    const out = new FirewallResult(fw.newCounts());
    fw.evaluate(witnessRecord(witness), out);
    expect(out.drop).toBe(false);
    expect(fw.rules[out.decidingRule]!.ref).toBe('allow-partners');
  });

  it('a list of maps is their union: it holds when every map does, and fails with a witness of a map that does not', () => {
    const file = suite(`  - name: telnet from 10/8 and from 192.0.2.0/24
    space:
      - {ip.src: [10.0.0.0/8], ip.proto: tcp, tcp.dstport: [23]}
      - {ip.src: [10.0.0.0/8], ip.proto: tcp, tcp.dstport: [2323]}
    expect: {verdict: drop, rule: block-telnet}
  - name: telnet, and the web ports too
    space: [{ip.src: [10.0.0.0/8], ip.proto: tcp, tcp.dstport: [23]}, {ip.proto: tcp, tcp.dstport: [443]}]
    expect: {verdict: drop, rule: block-telnet}
`);
    const json = path.join(path.dirname(file), 'r.json');
    const r = runCli(['test', file, '--json', json]);
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: Array<{ status: string; message: string }> };
    expect(report.cases.map((c) => c.status)).toEqual(['passed', 'failed']);
    const witness = JSON.parse(/for packet (\{.*\})$/.exec(report.cases[1]!.message)![1]!) as Witness;
    expect(witness['tcp.dstport']).toBe(443);
  });

  it('an empty union, or a map of it that cannot be read, is a suite error naming where', () => {
    const empty = runCli(['test', suite(`  - name: nothing
    space: []
    expect: {verdict: drop}
`)]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('got an empty list');
    const bad = runCli(['test', suite(`  - name: bad port in the second map
    space: [{tcp.dstport: [22]}, {tcp.dstport: [22x]}]
    expect: {verdict: drop}
`)]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/space\[1\].*is not a number or a range/);
  });

  it('a space that cannot be read is a suite error (exit 2)', () => {
    const r = runCli(['test', suite(`  - name: bad port
    space: {tcp.dstport: [22x]}
    expect: {verdict: drop}
`)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not a number or a range');
  });

  it('{not: [values]} is every value but those, a packet without the field included', () => {
    const r = runCli(['test', suite(`  - name: TCP to the web servers but the web ports, from no blocked country
    space: {ip.proto: tcp, ip.src: [10.0.0.0/8], ip.dst: [203.0.113.0/24], tcp.dstport: {not: [22, 23, 80, 443, 2323]}, ip.src.country: {not: [KP, IR]}}
    expect: {verdict: drop, rule: block-other-tcp}
  - name: one of them is 80
    space: {ip.proto: tcp, ip.src: [10.0.0.0/8], ip.dst: [203.0.113.0/24], tcp.dstport: {not: [22, 23, 443, 2323]}, ip.src.country: {not: [KP, IR]}}
    expect: {verdict: drop, rule: block-other-tcp}
  - name: countries but KP and IR, and packets of no known country
    space: {ip.src: [10.0.0.0/8], ip.proto: udp, udp.dstport: [9999], ip.src.country: {not: [KP, IR]}}
    expect: {verdict: pass, rule: null}
`), '--format', 'json']);
    const report = JSON.parse(r.stdout) as { cases: Array<{ name: string; status: string; message: string }> };
    expect(report.cases.map((c) => c.status)).toEqual(['passed', 'failed', 'passed']);
    expect(report.cases[1]!.message).toMatch(/got pass by allow-web for packet .*"tcp\.dstport":80/);
    const bad = runCli(['test', suite(`  - name: no list
    space: {tcp.dstport: {only: [22]}}
    expect: {verdict: drop}
`)]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('tcp.dstport');
  });

  it("a space the run's analysis budget leaves open is not proved: a warning, a failure under --strict", async () => {
    const file = suite(`  - name: telnet
    space: {ip.src: [10.0.0.0/8], ip.proto: tcp, tcp.dstport: [23]}
    expect: {verdict: drop}
`);
    const { AnalysisBudget } = await import('../../src/analysis/index.js');
    const { loadSuite } = await import('../../src/suite/load.js');
    const { runSuites } = await import('../../src/suite/run.js');
    const [open] = await runSuites([await loadSuite(file)], { analysis: new AnalysisBudget({ total: 50 }) });
    expect(open).toMatchObject({ status: 'passed', warnings: [expect.stringMatching(/^not proved: the analysis reached its work limit for the whole run \(50 steps\) before deciding whether /)] });
    const [strict] = await runSuites([await loadSuite(file)], { analysis: new AnalysisBudget({ total: 50 }), strict: true });
    expect(strict!.status).toBe('failed');
    const [proved] = await runSuites([await loadSuite(file)]);
    expect(proved).toMatchObject({ status: 'passed', warnings: [] });
  });
});
