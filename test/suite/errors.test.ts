// An invalid suite is one line naming the file, the line and the key, exit 2, and no case runs.
// The table states the exact message for each kind of mistake a person makes in a suite.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load.js';
import { SuiteError } from '../../src/suite/source.js';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, tempDir, writeSuite } from './helpers.js';

/** Anchors whose last one (*g) expands to 10^7 values when resolved; harmless until something reads *g. */
const BOMB = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'abcdef'.split('').map((prev, i) => `${'bcdefg'[i]}: &${'bcdefg'[i]} [${Array(10).fill(`*${prev}`).join(', ')}]`)];

const HEAD = `config: ${DEMO_CONFIG}\ncases:\n`;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const NOT_JSON = (tag: string): string => `${tag} values are not read by suites: remove the tag (a suite holds maps, lists, strings, numbers, true, false and null)`;

/** [what, the cases part of the suite (line 3 on), the message after `FILE:`] */
const TABLE: Array<[string, string, string]> = [
  ['unknown field, with did-you-mean', '  - name: a\n    packet: {tcp.dstprot: 22}\n    expect: {verdict: drop}\n', '4: cases[0].packet.tcp.dstprot: unknown field (did you mean "tcp.dstport"?)'],
  ['unknown field as near to sip as to ip', '  - name: a\n    packet: {sp: true}\n    expect: {verdict: drop}\n', '4: cases[0].packet.sp: unknown field (did you mean "sip"?)'],
  ['wrong type (a port as text)', '  - name: a\n    packet:\n      tcp.dstport: "22"\n    expect: {verdict: drop}\n', '5: cases[0].packet.tcp.dstport: expected a whole number, got "22"'],
  ['wrong type (an address as a number)', '  - name: a\n    packet:\n      ip.src: 10\n    expect: {verdict: drop}\n', '5: cases[0].packet.ip.src: expected an address written as a string (e.g. "192.0.2.1"), got a number'],
  ['a flag as a number', '  - name: a\n    packet:\n      tcp.flags.syn: 1\n    expect: {verdict: drop}\n', '5: cases[0].packet.tcp.flags.syn: expected true or false, got a number'],
  ['ip.proto udp with tcp.dstport', '  - name: a\n    packet:\n      ip.proto: udp\n      tcp.dstport: 22\n    expect: {verdict: drop}\n', '6: cases[0].packet.tcp.dstport: contradicts ip.proto udp'],
  ['tcp and udp fields together', '  - name: a\n    packet:\n      tcp.dstport: 22\n      udp.dstport: 53\n    expect: {verdict: drop}\n', '6: cases[0].packet.udp.dstport: contradicts tcp.dstport (a packet is tcp or udp, not both)'],
  ['tcp.flags and a flag boolean disagree', '  - name: a\n    packet:\n      tcp.flags: 18\n      tcp.flags.ack: false\n    expect: {verdict: drop}\n', '6: cases[0].packet.tcp.flags.ack: false disagrees with tcp.flags 18 (0x12: SYN ACK)'],
  ['IPv4 source, IPv6 destination', '  - name: a\n    packet:\n      ip.src: 192.0.2.1\n      ip.dst: "2001:db8::1"\n    expect: {verdict: drop}\n', '6: cases[0].packet.ip.dst: is IPv6 but ip.src is IPv4'],
  ['a network where an address goes', '  - name: a\n    packet:\n      ip.src: 192.0.2.0/24\n    expect: {verdict: drop}\n', '5: cases[0].packet.ip.src: expected one address, got the network "192.0.2.0/24"'],
  ['an option type without options', '  - name: a\n    packet:\n      ip.hdr_len: 5\n      ip.opt.type: 7\n    expect: {verdict: drop}\n', '6: cases[0].packet.ip.opt.type: needs IPv4 options: ip.hdr_len 6 or more (ip.hdr_len 5 is a header without them)'],
  ['an IPv4 header shorter than one', '  - name: a\n    packet:\n      ip.hdr_len: 4\n    expect: {verdict: drop}\n', '5: cases[0].packet.ip.hdr_len: 4 is too small: an IPv4 header is 5 to 15 32-bit words (5: no options)'],
  ['an IPv4 header field on IPv6', '  - name: a\n    packet: {ip.src: "2001:db8::1", ip.hdr_len: 5}\n    expect: {verdict: drop}\n', '4: cases[0].packet.ip.hdr_len: is an IPv4 header field, but the packet is IPv6'],
  ['bytes not written as inspect writes them', '  - name: a\n    packet: {tcp: "0x1234"}\n    expect: {verdict: drop}\n', '4: cases[0].packet.tcp: expected bytes written as inspect writes them (e.g. "45:00:00:3c"), got "0x1234"'],
  ['a payload no packet holds', `  - name: a\n    packet: {payload: "${'a'.repeat(2000)}"}\n    expect: {verdict: drop}\n`, '4: cases[0].packet.payload: 2000 bytes do not fit a packet (at most 2034 bytes with its headers)'],
  ['a payload longer than ip.len', '  - name: a\n    packet: {payload: "hello", ip.len: 40}\n    expect: {verdict: drop}\n', '4: cases[0].packet.ip.len: 40 does not fit this packet (its headers and payload take 45 bytes; at most 2034)'],
  ['unknown expect key', '  - name: a\n    packet: {tcp.dstport: 22}\n    expect:\n      verdic: drop\n', '6: cases[0].expect.verdic: unknown expect key (did you mean "verdict"?)'],
  ['a verdict that is not one', '  - name: a\n    packet: {tcp.dstport: 22}\n    expect:\n      verdict: blocked\n', '6: cases[0].expect.verdict: expected pass | drop, got "blocked"'],
  ['duplicate case name', '  - name: same\n    packet: {}\n    expect: {verdict: pass}\n  - name: same\n    packet: {}\n    expect: {verdict: pass}\n', '6: cases[1].name: duplicate case name "same" (first at line 3)'],
  ['missing capture', '  - name: a\n    capture: nowhere.pcap\n    expect: {totals: {pass: 1}}\n', '4: cases[0].capture: "nowhere.pcap": no such file (paths are relative to the suite\'s folder)'],
  ['a case of two kinds', `  - name: a\n    packet: {}\n    capture: ${DEMO_PCAP}\n    expect: {verdict: pass}\n`, `5: cases[0].capture: a case is one kind: packet or capture, not both`],
  ['unknown case key', '  - name: a\n    paket: {}\n    expect: {verdict: pass}\n', '4: cases[0].paket: unknown key (did you mean "packet"?)'],
  ['a frame number that is not one', `  - name: a\n    capture: ${DEMO_PCAP}\n    expect:\n      frames: {first: drop}\n`, '6: cases[0].expect.frames.first: expected a frame number (1, 2, ...; frames are numbered as Wireshark numbers them)'],
  ['unknown scenario', '  - name: a\n    scenario: syn-fold\n    expect: {attack_dropped_min: 0.9}\n', '4: cases[0].scenario: unknown scenario "syn-fold"; expected one of handshakes, syn-flood, ack-flood, mixed, geo or a flow spec file (.json)'],
  ['a share above 1', '  - name: a\n    scenario: syn-flood\n    expect: {attack_dropped_min: 99}\n', '5: cases[0].expect.attack_dropped_min: expected a share from 0 to 1 (0.99 = 99%), got 99'],
  ['a verdict where expect wants a map', '  - name: a\n    packet: {tcp.dstport: 22}\n    expect: drop\n', '5: cases[0].expect: expected a map of what to check (verdict, rule, stage, reason, matched), e.g. expect: { verdict: drop }'],
  ['a list where expect wants a map', '  - name: a\n    scenario: syn-flood\n    expect: [0.9]\n', '5: cases[0].expect: expected a map of what to check (attack_dropped_min, legit_flows_harmed_max, legit_dropped_max)'],
  ['nothing expected', '  - name: a\n    packet: {}\n    expect: {}\n', '5: cases[0].expect: nothing to check: give one of verdict, rule, stage, reason, matched'],
  ['a !!binary value', '  - name: a\n    packet:\n      tcp.dstport: !!binary aGVsbG8=\n    expect: {verdict: drop}\n', `5: cases[0].packet.tcp.dstport: ${NOT_JSON('!!binary')}`],
  ['a !!timestamp time', '  - name: a\n    packets:\n      - {tcp.dstport: 22, time: !!timestamp 2001-12-14t21:59:43.10-05:00}\n    expect: {verdict: drop}\n', `5: cases[0].packets[0].time: ${NOT_JSON('!!timestamp')}`],
  ['a !!timestamp name', '  - name: !!timestamp 2001-12-14\n    packet: {}\n    expect: {verdict: drop}\n', `3: cases[0].name: ${NOT_JSON('!!timestamp')}`],
  ['a !!set of fields', '  - name: a\n    packet: !!set {tcp.dstport}\n    expect: {verdict: drop}\n', `4: cases[0].packet: ${NOT_JSON('!!set')}`],
];

describe('suite errors', () => {
  it.each(TABLE)('%s', async (_what, cases, message) => {
    const file = writeSuite(HEAD + cases);
    const err = await loadSuite(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SuiteError);
    expect((err as SuiteError).message).toBe(`${file}:${message}`);
    expect((err as SuiteError).exitCode).toBe(2);
  });

  it('names the config and its line when it is missing or broken', async () => {
    const missing = writeSuite('cases: []\n');
    await expect(loadSuite(missing)).rejects.toThrow(`${missing}:1: config: missing: name the configuration (a file or a list of files, relative to the suite) or write it inline`);
    const nofile = writeSuite('# a comment\nconfig: nowhere.json\ncases: []\n');
    await expect(loadSuite(nofile)).rejects.toThrow(`${nofile}:2: config: "nowhere.json": no such file (paths are relative to the suite's folder)`);
    const bad = writeSuite('config:\n  rulesets:\n    - {name: r, phase: edge_transit, kind: root, rules: [{action: block, expression: "tcp.dstport == x"}]}\ncases: []\n');
    const err = (await loadSuite(bad).then(
      () => null,
      (e: unknown) => e,
    )) as SuiteError;
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: config: .*rulesets\\[0\\]\\.rules\\[0\\]\\.expression`));
  });

  it('refuses an alias bomb in an inline configuration or a packet field at its line, and runs no case', () => {
    const anchors = `description:\n${BOMB.map((l) => `  ${l}\n`).join('')}`;
    const bombs: Array<[string, string]> = [
      [`${anchors}config:\n  rulesets: *g\ncases:\n  - name: a\n    packet: {}\n    expect: {verdict: drop}\n`, '10: config: '],
      [`${anchors}${HEAD}  - name: a\n    packet: {ip.src: *g}\n    expect: {verdict: drop}\n`, '12: cases[0].packet.ip.src: '],
    ];
    for (const [text, where] of bombs) {
      const file = writeSuite(text);
      const r = runCli(['test', file]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`edgesim: ${file}:${where}its aliases expand to more than 10,000 values: refused as an alias bomb\n`);
    }
  });

  it('takes an anchor reused as often as a suite needs: a rule in an inline configuration, a packet, an expectation', async () => {
    const rules = `      rules:\n        - &rule {action: block, expression: "tcp.dstport == 22"}\n${'        - *rule\n'.repeat(500)}`;
    const config = `config:\n  rulesets:\n    - name: fw\n      phase: edge_transit\n      kind: root\n${rules}`;
    const cases = Array.from({ length: 500 }, (_, i) => `  - name: c${i}\n    packets: [*pkt, *pkt, *pkt]\n    expect: *exp\n`).join('');
    const file = writeSuite(`${config}cases:\n  - name: first\n    packet: &pkt {tcp.dstport: 22}\n    expect: &exp {verdict: drop}\n${cases}`);
    const suite = await loadSuite(file);
    expect(suite.cases).toHaveLength(501);
    const r = runCli(['test', file]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('501 cases: 501 passed, 0 failed, 0 errors');
  });

  it('names the configuration file as the suite does, and an inline one by the suite alone', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    const passwd = writeSuite('config: passwd\ncases: []\n', 'passwd.yaml', dir);
    await expect(loadSuite(passwd)).rejects.toThrow(new RegExp(`^${escape(passwd)}:1: config: passwd: invalid JSON at line 1, column 1: Unexpected character$`));
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ rulesets: 5, prefixes: 6 }));
    const bad = writeSuite('config: bad.json\ncases: []\n', 'bad.yaml', dir);
    await expect(loadSuite(bad)).rejects.toThrow(new RegExp(`^${escape(bad)}:1: config: bad\\.json: rulesets: must be an array \\(got integer\\) \\(and 1 more problem\\)$`));
    const inline = writeSuite('config:\n  rulesets:\n    - {name: r, phase: edge_transit, kind: root, rules: [{action: block, expression: "ip.src == 34"}]}\ncases: []\n', 'inline.yaml', dir);
    await expect(loadSuite(inline)).rejects.toThrow(
      new RegExp(`^${escape(inline)}:2: config: rulesets\\[0\\]\\.rules\\[0\\]\\.expression: Filter parsing error \\(1:11\\): couldn't parse address in network: invalid IP address syntax$`),
    );
  });

  it('reports YAML syntax errors at their line', async () => {
    const file = writeSuite(`${HEAD}  - name: a\n    packet: {tcp.dstport: 22\n    expect: {verdict: drop}\n`);
    await expect(loadSuite(file)).rejects.toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: not valid YAML: `));
  });

  it('reads JSON suites with their line numbers too', async () => {
    const json = JSON.stringify({ config: DEMO_CONFIG, cases: [{ name: 'a', packet: { 'tcp.dstprot': 22 }, expect: { verdict: 'drop' } }] }, null, 2);
    const file = writeSuite(json, 'suite.json');
    const line = json.split('\n').findIndex((l) => l.includes('tcp.dstprot')) + 1;
    await expect(loadSuite(file)).rejects.toThrow(`${file}:${line}: cases[0].packet.tcp.dstprot: unknown field (did you mean "tcp.dstport"?)`);
  });

  it('exits 2 with the one line and runs no case, even when earlier cases are fine', () => {
    const file = writeSuite(`${HEAD}  - name: fine\n    packet: {tcp.dstport: 22}\n    expect: {verdict: drop}\n  - name: broken\n    packet: {tcp.dstprot: 22}\n    expect: {verdict: drop}\n`);
    const r = runCli(['test', file]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`edgesim: ${file}:7: cases[1].packet.tcp.dstprot: unknown field (did you mean "tcp.dstport"?)\n`);
  });
});
