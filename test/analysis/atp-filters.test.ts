// ATP filters that never apply (src/analysis/atp-filters.ts): a filter decides its component's
// mode for the TCP packets it matches to (or from) protected space; an enabled filter wins over a
// monitoring one, which wins over a disabled one, within one component.
import { describe, expect, it } from 'vitest';
import { lint, type Finding } from '../../src/analysis/index.js';
import type { ProtectionFilter, Snapshot } from '../../src/config/snapshot.js';

const PREFIX = '203.0.113.0/24';
const atp = (findings: Finding[]): Finding[] => findings.filter((f) => f.kind === 'atp_filter_never_applies');
const syn = (...filters: ProtectionFilter[]): Snapshot => ({ prefixes: [{ prefix: PREFIX }], syn_protection: { filters } });

describe('atp_filter_never_applies', () => {
  it('reports a filter matching no TCP packet to or from protected space, with the whole finding', () => {
    const s = syn({ id: 'out', expression: 'ip.dst in {198.51.100.0/24} and ip.src in {192.0.2.0/24}', mode: 'enabled' });
    expect(atp(lint(s))).toEqual([
      {
        ruleset: 'syn_protection', rule: 'out', kind: 'atp_filter_never_applies', blocked_by: [], different_action: false, witness: null,
        message: 'filter out (enabled) matches no TCP packet to or from a protected prefix',
      },
    ]);
  });

  it('counts TCP packets from a protected prefix (egress) as well as to one', () => {
    const from = syn({ id: 'from', expression: `ip.src in {${PREFIX}} and tcp.dstport == 443`, mode: 'enabled' });
    const to = syn({ id: 'to', expression: `ip.dst in {${PREFIX}} and tcp.dstport == 443`, mode: 'enabled' });
    expect(atp(lint(from))).toEqual([]);
    expect(atp(lint(to))).toEqual([]);
    expect(atp(lint(syn({ id: 'neither', expression: 'ip.src in {198.51.100.0/24} and ip.dst in {198.51.100.0/24}', mode: 'enabled' })))).toHaveLength(1);
  });

  it('names an unnamed filter by its place and lists the stronger filters that cover it', () => {
    const s: Snapshot = {
      prefixes: [{ prefix: PREFIX }],
      tcp_flow_protection: {
        filters: [
          { expression: `ip.dst in {203.0.113.0/25}`, mode: 'enabled' },
          { id: 'mon', expression: `ip.dst in {203.0.113.128/25}`, mode: 'monitoring' },
          { expression: `ip.dst in {${PREFIX}} and tcp.dstport == 22`, mode: 'disabled' },
        ],
      },
    };
    expect(atp(lint(s))).toEqual([
      expect.objectContaining({
        ruleset: 'tcp_flow_protection',
        rule: 'tcp_flow_protection.filters[2]',
        message: 'filter tcp_flow_protection.filters[2] (disabled) never applies: filters of a stronger mode match every packet it matches (tcp_flow_protection.filters[0], mon)',
      }),
    ]);
  });

  it('does not count a filter of the same or a weaker mode, nor one of the other component, as covering', () => {
    const same = syn({ id: 'a', expression: `ip.dst in {${PREFIX}}`, mode: 'monitoring' }, { id: 'b', expression: `ip.dst in {${PREFIX}} and tcp.dstport == 22`, mode: 'monitoring' });
    expect(atp(lint(same))).toEqual([]);
    const weaker = syn({ id: 'a', expression: `ip.dst in {${PREFIX}}`, mode: 'disabled' }, { id: 'b', expression: `ip.dst in {${PREFIX}} and tcp.dstport == 22`, mode: 'monitoring' });
    expect(atp(lint(weaker))).toEqual([]);
    const other: Snapshot = {
      prefixes: [{ prefix: PREFIX }],
      syn_protection: { filters: [{ id: 'a', expression: `ip.dst in {${PREFIX}}`, mode: 'enabled' }] },
      tcp_flow_protection: { filters: [{ id: 'b', expression: `ip.dst in {${PREFIX}} and tcp.dstport == 22`, mode: 'disabled' }] },
    };
    expect(atp(lint(other))).toEqual([]);
  });

  it('needs the stronger filters to cover every protected packet the filter may match, not only some', () => {
    const partial = syn({ id: 'a', expression: `ip.dst in {203.0.113.0/25}`, mode: 'enabled' }, { id: 'b', expression: `ip.dst in {${PREFIX}}`, mode: 'disabled' });
    expect(atp(lint(partial))).toEqual([]);
    // outside protected space b matches more than a, which does not count: b applies only inside it
    const inside = syn({ id: 'a', expression: `ip.dst in {${PREFIX}} or ip.src in {${PREFIX}}`, mode: 'enabled' }, { id: 'b', expression: `tcp.dstport == 22`, mode: 'disabled' });
    expect(atp(lint(inside)).map((f) => f.rule)).toEqual(['b']);
  });

  it('says which filters the work limit kept it from deciding, and decides them with more steps', () => {
    const finding = (rule: string, mode: string, steps: number): Finding => ({
      ruleset: 'syn_protection', rule, kind: 'indeterminate', blocked_by: [], different_action: false, witness: null,
      message: `filter ${rule} (${mode}): the analysis reached its work limit (${steps} steps) before deciding whether it ever applies`,
    });
    const ours = (findings: Finding[]) => findings.filter((f) => f.ruleset === 'syn_protection');
    // the question whether 30 stronger filters (the odd ports) cover b runs out; with more steps: they do not (the even ports)
    const ports = syn(...Array.from({ length: 30 }, (_, i): ProtectionFilter => ({ id: `p${2 * i + 1}`, expression: `tcp.dstport == ${2 * i + 1}`, mode: 'enabled' })), { id: 'b', expression: 'tcp.dstport in {1..59}', mode: 'disabled' });
    expect(ours(lint(ports, { workLimit: 100 }))).toEqual([finding('b', 'disabled', 100)]);
    expect(ours(lint(ports))).toEqual([]);
    // the meaning of the stronger filter a runs out: it covers nothing then, and b is not said to be covered;
    // with more steps a covers b
    const a = `not (${[0, 1, 2].map((i) => `(ip.src in {10.${i}.0.0/16} and tcp.dstport != ${i + 1})`).join(' or ')})`;
    const meaning = syn({ id: 'a', expression: a, mode: 'enabled' }, { id: 'b', expression: 'tcp.dstport == 22 and ip.src in {192.0.2.0/24}', mode: 'disabled' });
    expect(ours(lint(meaning, { workLimit: 100 }))).toEqual([finding('a', 'enabled', 100)]);
    expect(ours(lint(meaning)).map((f) => [f.rule, f.kind])).toEqual([['b', 'atp_filter_never_applies']]);
  });

  it("refuses a filter the filter scheme cannot parse, naming the filter's place", () => {
    const s: Snapshot = { prefixes: [{ prefix: PREFIX }], tcp_flow_protection: { filters: [{ id: 'ok', expression: 'tcp.dstport == 1', mode: 'enabled' }, { id: 'bad', expression: 'ip.ttl == 1', mode: 'enabled' }] } };
    expect(() => lint(s)).toThrow(/tcp_flow_protection\.filters\[1\]\.expression/);
  });
});
