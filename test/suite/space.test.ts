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

  it('a space that cannot be read is a suite error (exit 2)', () => {
    const r = runCli(['test', suite(`  - name: bad port
    space: {tcp.dstport: [22x]}
    expect: {verdict: drop}
`)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not a number or a range');
  });
});
