// Loading snapshot files: every kind of mistake reported with the file name and the JSON path,
// normalisation (defaults, vendor aliases), duplicate and list-reference checks, and acceptance of
// exactly what the API returns (server fields included).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJson } from '../../src/config/json.js';
import { loadSnapshotFile } from '../../src/config/load.js';
import { SnapshotError, validateSnapshot } from '../../src/config/validate.js';
import { UserError } from '../../src/errors.js';
import { tempDir } from '../api/helpers.js';

const dir = tempDir('edgesim-config-');

function file(name: string, content: string | object): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return p;
}

async function loadError(p: string): Promise<string> {
  try {
    await loadSnapshotFile(p);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected the load to fail');
}

const ruleset = (rules: object[]) => ({ name: 'fw', kind: 'root', phase: 'edge_transit', rules });

describe('loadSnapshotFile', () => {
  it('names the file, the JSON path and the Rules-language message for a bad expression', async () => {
    const p = file('x.json', {
      rulesets: [ruleset([
        { action: 'block', expression: 'tcp.dstport == 22' },
        { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'udp.dstport == 53' },
        { action: 'block', expression: 'ip.src==34' },
      ])],
    });
    expect(await loadError(p)).toBe(`${p}: rulesets[0].rules[2].expression: Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax`);
  });

  it('lists every problem: unknown keys, wrong types, bad enums, bad addresses', async () => {
    const p = file('many.json', {
      tcp_protection_status: { enabled: 'yes' },
      prefixes: [{ prefix: '10.0.0.1/8' }],
      allowlist: [{ prefix: '192.0.2.7', enabled: true, note: 'x' }],
      syn_protection: { rules: [{ scope: 'region', name: 'WEUR', mode: 'mitigation' }], filter: [] },
      firewall: {},
    });
    expect((await loadError(p)).split('\n')).toEqual([
      `${p}: tcp_protection_status.enabled: must be a boolean (got string)`,
      `${p}: prefixes[0].prefix: "10.0.0.1/8": host bits are set (did you mean 10.0.0.0/8?)`,
      `${p}: allowlist[0].note: unknown key (expected one of: id, prefix, comment, enabled, created_on, modified_on)`,
      `${p}: syn_protection.rules[0].mode: must be one of "enabled", "disabled", "monitoring" (got "mitigation")`,
      `${p}: syn_protection.filter: unknown key (expected one of: rules, filters)`,
      `${p}: firewall: unknown key (expected one of: tcp_protection_status, prefixes, allowlist, syn_protection, tcp_flow_protection, rulesets, lists)`,
    ]);
  });

  it('bad JSON names the line and column; a missing file and a directory are named too', async () => {
    const p = file('bad.json', '{\n  "prefixes": [\n    {"prefix": "10.0.0.0/8",}\n  ]\n}\n');
    expect(await loadError(p)).toBe(`${p}: invalid JSON at line 3, column 29: Expected double-quoted property name`);
    expect(await loadError(path.join(dir, 'nope.json'))).toBe(`${path.join(dir, 'nope.json')}: cannot read the configuration: no such file`);
    mkdirSync(path.join(dir, 'adir'), { recursive: true });
    expect(await loadError(path.join(dir, 'adir'))).toBe(`${path.join(dir, 'adir')}: cannot read the configuration: is a directory`);
    expect(await loadError(file('empty.json', ''))).toBe(`${path.join(dir, 'empty.json')}: invalid JSON: Unexpected end of JSON input`);
  });

  it('a file that is not JSON is named, with the line and column of the first wrong character, and none of its content', async () => {
    const p = file('passwd', 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n');
    expect(await loadError(p)).toBe(`${p}: invalid JSON at line 1, column 1: Unexpected character`);
    const q = file('tail.json', '{\n  "prefixes": [],\n  "rulesets": [1, 2,\n    hunter2]\n}\n');
    expect(await loadError(q)).toBe(`${q}: invalid JSON at line 4, column 5: Unexpected character`);
  });

  it('never quotes the text it could not read, wherever the mistake is', () => {
    // secrets of letters no parser message spells in six in a row (a word of the message, such as
    // 'operty' of 'property name', would otherwise look like an echo)
    const secret = fc.stringMatching(/^[QXZ][QXZ0-9+/]{7,39}$/);
    const broken = fc.tuple(secret, fc.constantFrom('SECRET', '{"key": SECRET}', '["SECRET', '[1, SECRET]', '{"SECRET" 1}', '"SECRET\u0001"', '{} SECRET'));
    fc.assert(
      fc.property(broken, ([s, shape]) => {
        const text = shape.replace('SECRET', s);
        let message = '';
        try {
          parseJson(text);
        } catch (err) {
          message = (err as Error).message;
        }
        expect(message).toMatch(/^invalid JSON/);
        for (let i = 0; i + 6 <= s.length; i++) expect(message).not.toContain(s.slice(i, i + 6));
      }),
    );
  });

  it('normalises: defaults filled, magic_transit read as edge_transit, an empty file object is an empty configuration', async () => {
    const s = await loadSnapshotFile(file('norm.json', {
      syn_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled' }] },
      tcp_flow_protection: { rules: [{ scope: 'global', name: 'global', mode: 'monitoring', rate_sensitivity: 'low' }] },
      allowlist: [{ prefix: '198.51.100.0/24' }],
      rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $cf.malware' }] }],
    }));
    expect(s.syn_protection?.rules?.[0]).toEqual({ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium', mitigation_type: 'challenge' });
    expect(s.tcp_flow_protection?.rules?.[0]).toEqual({ scope: 'global', name: 'global', mode: 'monitoring', rate_sensitivity: 'low', burst_sensitivity: 'medium' });
    expect(s.allowlist?.[0]).toEqual({ prefix: '198.51.100.0/24', comment: '', enabled: false });
    expect(s.rulesets?.[0]).toMatchObject({ phase: 'edge_transit', rules: [{ action: 'block', expression: 'ip.src in $cf.malware', enabled: true }] });
    expect(await loadSnapshotFile(file('empty-object.json', '{}'))).toEqual({});
  });

  it('duplicates and a second root ruleset in a phase are errors with both places named', async () => {
    const p = file('dups.json', {
      prefixes: [{ prefix: '10.0.0.0/8' }, { prefix: '10.0.0.0/8', excluded: true }],
      rulesets: [ruleset([{ action: 'block', expression: 'tcp.dstport == 1', ref: 'a' }, { action: 'block', expression: 'tcp.dstport == 2', ref: 'a' }]), { ...ruleset([]), phase: 'magic_transit' }],
    });
    expect((await loadError(p)).split('\n')).toEqual([
      `${p}: rulesets[0].rules[1].ref: ref "a" is already used by rulesets[0].rules[0]`,
      `${p}: prefixes[1].prefix: 10.0.0.0/8 is already a protected prefix (prefixes[0])`,
      `${p}: rulesets[1].phase: phase edge_transit already has a root ruleset (rulesets[0]); change that one instead`,
    ]);
  });

  it('paths stay right when an array also holds non-objects', () => {
    expect(() => validateSnapshot({ prefixes: [7, { prefix: '10.0.0.0/8' }, { prefix: '10.0.0.0/8' }] }, 's')).toThrow(
      's: prefixes[0]: must be an object (got integer)\ns: prefixes[2].prefix: 10.0.0.0/8 is already a protected prefix (prefixes[1])',
    );
  });

  it('a rule may only use a managed list or one of the snapshot\'s lists, whether or not it has a "lists" key', () => {
    const rules = [{ action: 'block', expression: 'ip.src in $office or ip.src in $svc.botnetcc' }];
    expect(() => validateSnapshot({ rulesets: [ruleset(rules)], lists: [{ name: 'office', kind: 'ip', items: [{ ip: '192.0.2.0/24' }] }] })).not.toThrow();
    for (const lists of [{}, { lists: [{ name: 'offices', kind: 'ip' }] }]) {
      let err: unknown;
      try {
        validateSnapshot({ rulesets: [ruleset(rules)], ...lists }, 'f.json');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SnapshotError);
      expect((err as SnapshotError).issues.map((i) => i.path)).toEqual([['rulesets', 0, 'rules', 0, 'expression']]);
      expect((err as Error).message).toMatch(/^f\.json: rulesets\[0\]\.rules\[0\]\.expression: unknown list \$office: /);
    }
    const managedTypo = [{ action: 'block', expression: 'ip.dst in $svc.mal' }];
    expect(() => validateSnapshot({ rulesets: [ruleset(managedTypo)] }, 'f.json')).toThrow(/^f\.json: rulesets\[0\]\.rules\[0\]\.expression: unknown list \$svc\.mal: not a managed list/);
  });

  it('with unknownLists "allow" (lint), such a rule loads', () => {
    const rules = [{ action: 'block', expression: 'ip.src in $office or ip.dst in $svc.mal' }];
    expect(validateSnapshot({ rulesets: [ruleset(rules)] }, 'f.json', { unknownLists: 'allow' }).rulesets![0].rules![0].expression).toBe(rules[0].expression);
  });

  it('accepts objects exactly as the API returns them (ids, timestamps, versions, counts)', () => {
    const s = validateSnapshot({
      tcp_protection_status: { enabled: true },
      prefixes: [{ id: 'f174e90a-fafe-4643-bbbc-4a0ed4fc8415', prefix: '192.0.2.0/24', comment: 'Game ranges', excluded: false, created_on: '2022-01-01T13:06:04.721954+01:00', modified_on: '2022-01-01T13:06:04.721954+01:00' }],
      rulesets: [{
        id: '2c0fc9fa937b11eaa1b71c4d701ab86e', name: 'my example ruleset', description: 'Test magic transit ruleset', kind: 'root', version: '1',
        last_updated: '2020-12-02T20:24:07.776073Z', phase: 'magic_transit',
        rules: [{ id: '62449e2e0de149619edb35e59c10d801', version: '1', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 32768..65535 }', description: 'Allow TCP Ephemeral Ports', last_updated: '2020-12-02T20:24:07.776073Z', ref: '72449e2e0de149619edb35e59c10d801', enabled: true }],
      }],
      lists: [{ id: '2c0fc9fa937b11eaa1b71c4d701ab86e', name: 'iplist', kind: 'ip', num_items: 2, num_referencing_filters: 0, created_on: '2020-01-01T08:00:00Z', modified_on: '2020-01-10T14:00:00Z', items: [{ ip: '10.0.0.1' }, { ip: '10.10.0.0/24' }] }],
    });
    expect(s.rulesets?.[0].phase).toBe('edge_transit');
    expect(s.rulesets?.[0].rules?.[0].ref).toBe('72449e2e0de149619edb35e59c10d801');
  });

  it('more than 20 problems are summarised', () => {
    const prefixes = Array.from({ length: 25 }, () => ({ prefix: 'bad' }));
    try {
      validateSnapshot({ prefixes }, 'big.json');
    } catch (err) {
      const lines = (err as Error).message.split('\n');
      expect(lines).toHaveLength(21);
      expect(lines[20]).toBe('big.json: ... and 5 more problems');
      return;
    }
    throw new Error('expected a failure');
  });
});
