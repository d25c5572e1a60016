// The example suite in examples/ is what the README points people to: it must pass on the demo
// configuration, and its golden file must be exactly what the replay writes today. The golden was
// written by edgesim, so its firewall decisions are also checked against an oracle that is not:
// tshark's display filters for the demo's rules, applied in rule order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tsharkFields } from '../helpers/tshark.js';
import { DEMO_CONFIG, DEMO_PCAP } from './helpers.js';

interface GoldenLine {
  frame: number;
  verdict: 'pass' | 'drop';
  stage: string | null;
  rule: string | null;
  matched: string[];
}

const golden = (): GoldenLine[] =>
  readFileSync(new URL('../../examples/demo.verdicts.ndjson', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as GoldenLine);

// examples/demo-snapshot.json's enabled rules in order, as display filters (null: a looked-up field
// or a managed list that tshark does not have; the golden's own word is taken for those); skip and
// block end the evaluation, log goes on
const RULES: Array<[ref: string, terminating: boolean, filter: string | null]> = [
  ['allow-partners', true, 'ip.src == 192.0.2.0/24'],
  ['block-botnet-cc', true, null],
  ['log-icmp-echo', false, 'icmp && icmp.type == 8'],
  ['block-telnet', true, 'tcp.dstport == 23 || tcp.dstport == 2323'],
  ['dns-only-to-resolver', true, 'udp.dstport == 53 && !(ip.dst == 198.51.100.53)'],
  ['geo-block', true, null],
  ['allow-web', true, '(ip.dst == 203.0.113.0/24 || ipv6.dst == 2001:db8:ffff::/48) && (tcp.dstport == 80 || tcp.dstport == 443)'],
  ['ssh-from-office', true, 'tcp.dstport == 22 && !(ip.src == 10.0.0.0/8 || ip.src == 192.168.0.0/16)'],
  ['block-other-tcp', true, 'tcp && ip.dst == 203.0.113.0/24 && !(tcp.dstport == 22 || tcp.dstport == 80 || tcp.dstport == 443)'],
];

describe('examples/demo-suite.yaml', () => {
  it('the bundled example suite passes (the project runs its own example)', () => {
    const r = runCli(['test', 'examples/demo-suite.yaml', '--strict']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^12 cases: 12 passed, 0 failed, 0 errors$/m);
    expect(readFileSync(new URL('../../examples/demo.verdicts.ndjson', import.meta.url), 'utf8')).toBe(runCli(['replay', DEMO_PCAP, '--config', DEMO_CONFIG, '--format', 'ndjson']).stdout);
  });

  it('the golden\'s firewall decisions are those of tshark\'s display filters for the rules, in rule order', () => {
    const lines = golden();
    const selected = new Map(RULES.filter(([, , f]) => f !== null).map(([ref, , f]) => [ref, new Set(tsharkFields(DEMO_PCAP, ['frame.number'], { filter: f! }).map((row) => Number(row['frame.number']![0])))]));
    // frames that reached the firewall: protection (ATP) did not drop them
    const reached = lines.filter((l) => l.stage === null || l.stage === 'firewall');
    expect(reached.length).toBeGreaterThan(3000);
    const decidedBy = new Map<string, number>();
    for (const l of reached) {
      const matched: string[] = [];
      let rule: string | null = null;
      for (const [ref, terminating] of RULES) {
        const set = selected.get(ref);
        if (!(set === undefined ? l.matched.includes(ref) : set.has(l.frame))) continue;
        matched.push(ref);
        if (terminating) {
          rule = ref;
          break;
        }
      }
      const drop = rule !== null && rule !== 'allow-partners' && rule !== 'allow-web';
      expect({ frame: l.frame, rule: l.rule, matched: l.matched, verdict: l.verdict }).toEqual({ frame: l.frame, rule, matched, verdict: drop ? 'drop' : 'pass' });
      if (rule !== null) decidedBy.set(rule, (decidedBy.get(rule) ?? 0) + 1);
    }
    // the demo exercises the rules tshark can check: each decides some frames
    for (const ref of ['allow-partners', 'block-telnet', 'dns-only-to-resolver', 'allow-web', 'ssh-from-office']) expect(decidedBy.get(ref), ref).toBeGreaterThan(0);
  });
});
