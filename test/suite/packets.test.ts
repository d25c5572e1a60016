// Packet sequences: protection state carries from packet to packet within a case and never across
// cases; the expectation is about the last packet unless expect.packet names one, and a failure
// says which packet it is about.
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load.js';
import { runSuites } from '../../src/suite/run.js';
import { DEMO_CONFIG, writeSuite } from './helpers.js';

const SYN = '{ip.dst: 203.0.113.10, tcp.dstport: 22, tcp.flags.syn: true}';
const ACK = '{ip.dst: 203.0.113.10, tcp.dstport: 22, tcp.flags.ack: true, time: 0.01}';

describe('packets: sequences', () => {
  it('judges the named packet, keeps state within a case and starts each case afresh', async () => {
    const file = writeSuite(`config: ${DEMO_CONFIG}
cases:
  - name: handshake ACK from the office is in state
    packets: [${SYN.replace('{', '{ip.src: 10.0.0.9, ')}, ${ACK.replace('{', '{ip.src: 10.0.0.9, ')}]
    expect: {verdict: pass, stage: null, rule: null}
  - name: the SYN of the sequence, by number
    packets: [${SYN}, ${ACK}]
    expect: {packet: 1, verdict: drop, rule: ssh-from-office}
  - name: wrong on purpose, about packet 2
    packets: [${SYN}, ${ACK}]
    expect: {packet: 2, verdict: pass}
  - name: a lone ACK of the same connection meets a fresh path (wrong on purpose, to see its trace)
    packet: ${ACK}
    expect: {verdict: pass}
`);
    const results = await runSuites([await loadSuite(file)]);
    expect(results.map((r) => [r.name, r.status, r.message])).toEqual([
      ['handshake ACK from the office is in state', 'passed', ''],
      ['the SYN of the sequence, by number', 'passed', ''],
      ['wrong on purpose, about packet 2', 'failed', 'packet 2: verdict: expected pass, got drop'],
      ['a lone ACK of the same connection meets a fresh path (wrong on purpose, to see its trace)', 'failed', 'verdict: expected pass, got drop'],
    ]);
    // the previous cases opened this very connection; here ATP has never seen it
    expect(results[3]!.details).toMatch(/step=tcp_flow_protection .*connection=none->/);
    expect(results[2]!.details).toMatch(/\n {4}frame 2 /);
    expect(results[2]!.details).toMatch(/step=tcp_flow_protection .*connection=new->open/);
  });

  it('refuses a packet number the sequence does not have and times that go back', async () => {
    const bad = writeSuite(`config: ${DEMO_CONFIG}\ncases:\n  - name: a\n    packets: [${SYN}, ${ACK}]\n    expect: {packet: 3, verdict: pass}\n`);
    await expect(loadSuite(bad)).rejects.toThrow(`${bad}:5: cases[0].expect.packet: expected a packet number from 1 to 2, got 3`);
    const back = writeSuite(`config: ${DEMO_CONFIG}\ncases:\n  - name: a\n    packets:\n      - {time: 1}\n      - {time: 0.5}\n    expect: {verdict: pass}\n`);
    await expect(loadSuite(back)).rejects.toThrow(`${back}:6: cases[0].packets[1]: time 0.5 is before the previous packet's (1): packets are listed in time order`);
  });

  it('reads verdict: block as drop, with a note, and still refuses other words', async () => {
    const file = writeSuite(`config: ${DEMO_CONFIG}\ncases:\n  - name: ssh from outside\n    packet: ${SYN}\n    expect: {verdict: block, rule: ssh-from-office}\n  - name: wrong on purpose\n    packet: ${SYN}\n    expect: {verdict: block, rule: null}\n`);
    const results = await runSuites([await loadSuite(file)]);
    expect(results.map((r) => [r.status, r.message, r.notes])).toEqual([
      ['passed', 'verdict: block read as drop (the verdicts are pass and drop)', ['verdict: block read as drop (the verdicts are pass and drop)']],
      ['failed', 'rule: expected null, got ssh-from-office', ['verdict: block read as drop (the verdicts are pass and drop)']],
    ]);
    const typo = writeSuite(`config: ${DEMO_CONFIG}\ncases:\n  - name: a\n    packet: ${SYN}\n    expect: {verdict: blocked}\n`);
    await expect(loadSuite(typo)).rejects.toThrow(`${typo}:5: cases[0].expect.verdict: expected pass | drop, got "blocked"`);
  });
});
