// After a suite error nothing may keep `edgesim test` alive: loading a suite that fails, wherever it
// fails (its YAML, its configuration, a case after the configuration and its lookups are loaded, a
// golden file), leaves no handle open (timer, file, worker, socket), and the command exits at once.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load.js';
import { SuiteError } from '../../src/suite/source.js';
import { BIN, withoutSampleNotes } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, writeSuite } from './helpers.js';

const CASE = '  - name: fine\n    packet: {tcp.dstport: 22}\n    expect: {verdict: drop}\n';

const BROKEN: Array<[string, string]> = [
  ['YAML that does not parse', `config: ${DEMO_CONFIG}\ncases:\n${CASE}  - name: b\n    packet: {tcp.dstport: 22\n`],
  ['a configuration that does not compile', 'config:\n  rulesets:\n    - {name: r, phase: edge_transit, kind: root, rules: [{action: block, expression: "ip.src == 34"}]}\ncases:\n' + CASE],
  ['the last of many cases', `config: ${DEMO_CONFIG}\ncases:\n${CASE.replace('fine', 'c0')}${Array.from({ length: 300 }, (_, i) => CASE.replace('fine', `c${i + 1}`)).join('')}  - name: last\n    packet: {tcp.dstprot: 22}\n    expect: {verdict: drop}\n`],
  ['a capture case after the lookups are loaded', `config: ${DEMO_CONFIG}\ncases:\n  - name: c\n    capture: ${DEMO_PCAP}\n    expect: {frames: {0: drop}}\n`],
];

/** The handles in `after` beyond those in `before`, counted by kind. */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((kind) => {
    const i = left.indexOf(kind);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('a suite error leaves nothing running', () => {
  for (const [what, text] of BROKEN) {
    it(`loading: ${what}`, async () => {
      const file = writeSuite(text);
      await settled();
      const before = process.getActiveResourcesInfo().sort();
      await expect(loadSuite(file)).rejects.toBeInstanceOf(SuiteError);
      // nothing new is left open: a request of the test runner's own (its messages to the main
      // process) may be in flight at one turn of the event loop, but a leak stays for all of them
      let left: string[] = [];
      for (let turn = 0; turn < 50; turn++) {
        await settled();
        left = added(before, process.getActiveResourcesInfo());
        if (left.length === 0) break;
      }
      expect(left).toEqual([]);
    });

    it(`the command exits at once: ${what}`, () => {
      const file = writeSuite(text);
      // a command still running after 15 s is killed: its status is then null, not 2
      const r = spawnSync(process.execPath, [BIN, 'test', file], { encoding: 'utf8', timeout: 15_000 });
      expect(r.status).toBe(2);
      expect(withoutSampleNotes(r.stderr).split('\n')).toHaveLength(2);
    });
  }
});
