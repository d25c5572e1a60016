// End to end: `edgesim validate` and `edgesim explain` as a user runs them.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('edgesim validate', () => {
  it('prints valid and exits 0', () => {
    const r = runCli(['validate', 'ip.dst in { 192.0.2.0/24 } and tcp.dstport in { 80 443 }']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'valid\n', '']);
  });

  it('prints the engine message on stdout and exits 1', () => {
    const r = runCli(['validate', 'ip.src==34']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax\n");
    expect(r.stderr).toBe('');
  });

  it('--json prints the validate-expr envelope, valid and invalid', () => {
    const ok = runCli(['validate', '--json', 'tcp.dstport == 80']);
    expect([ok.status, JSON.parse(ok.stdout)]).toEqual([0, { result: null, success: true, errors: [], messages: [] }]);
    const bad = runCli(['validate', '--json', 'tcp.dstport == "80"']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({
      result: null,
      success: false,
      errors: [{ message: 'Filter parsing error (1:16):\ntcp.dstport == "80"\n               ^^^^ expected digit\n' }],
      messages: null,
    });
  });

  it('--legacy reproduces the documented older shape; reads stdin for - or no argument', () => {
    const expr = 'ip.src in {2400:cb00::/32 2405:8100::/2000 2c0f:f248::/32 2a06:98c0::/29}';
    const r = runCli(['validate', '--legacy', '--json', '-'], { input: `${expr}\n` });
    expect(JSON.parse(r.stdout).errors[0].message).toBe(
      `Filter parsing error:\n\`${expr}\`\n${' '.repeat(40)}^^^^ number too large to fit in target type while parsing with radix 10\n`,
    );
    expect(runCli(['validate'], { input: 'tcp.dstport == 80\n' }).stdout).toBe('valid\n');
  });

  it('--scheme filter checks ATP filter expressions; a bad scheme is a usage error', () => {
    const r = runCli(['validate', '--scheme', 'filter', 'ip.proto == "tcp"']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('unknown identifier');
    expect(runCli(['validate', '--scheme', 'filter', 'ip.src in {10.0.0.0/8} and tcp.dstport in {80}']).stdout).toBe('valid\n');
    const bad = runCli(['validate', '--scheme', 'nope', 'sip']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('nope');
  });

  it('limits: too long and too complex', () => {
    const groups = Array.from({ length: 9 }, (_, i) => `(tcp.dstport == ${1000 + 2 * i} || tcp.dstport == ${1001 + 2 * i})`).join(' && ');
    const r = runCli(['validate', groups]);
    expect([r.status, r.stdout]).toEqual([1, 'ruleset exceeds complexity constraints\n']);
    expect(runCli(['validate', `tcp.dstport in {${'1 '.repeat(2100)}}`]).stdout).toMatch(/^expression is too long: 4217 characters, the limit is 4096\n$/);
  });
});

describe('did-you-mean hints (CLI text only)', () => {
  it('validate and explain add one line after the unchanged engine message; --json has no hint', () => {
    const message = 'Filter parsing error (1:1):\ntcp.port == 80\n^^^^^^^^ unknown identifier\n';
    const r = runCli(['validate', 'tcp.port == 80']);
    expect([r.status, r.stdout]).toEqual([1, `${message}did you mean tcp.dstport or tcp.srcport?\n`]);
    const e = runCli(['explain', 'tcp']);
    expect([e.status, e.stdout]).toEqual([
      1,
      'Filter parsing error (1:4):\ntcp\n   ^ expected ComparisonOp\ntcp is the raw TCP header (Bytes), not a condition: did you mean ip.proto == "tcp"?\n',
    ]);
    const j = runCli(['validate', '--json', 'tcp.port == 80']);
    expect(JSON.parse(j.stdout)).toEqual({ result: null, success: false, errors: [{ message }], messages: null });
  });

  it('an expression naming a $cf./$svc. list that is not managed is valid, as the engine says, with a warning on stderr', () => {
    const warning = 'edgesim: warning: $cf.anonymiser is not a managed list, so no configuration can define it: did you mean $cf.anonymizer?\n';
    const r = runCli(['validate', 'ip.src in $cf.anonymiser']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'valid\n', warning]);
    const j = runCli(['validate', '--json', 'ip.src in $cf.anonymiser']);
    expect([j.status, JSON.parse(j.stdout), j.stderr]).toEqual([0, { result: null, success: true, errors: [], messages: [] }, warning]);
    const e = runCli(['explain', 'ip.src in $cf.anonymiser']);
    expect([e.status, e.stderr]).toEqual([0, warning]);
    expect(e.stdout).toContain('Canonical form: ip.src in $cf.anonymiser');
  });

  it('hints for the common slips after the unchanged engine message: a bare protocol name, a network with ==, a field an ATP filter may not use', () => {
    const proto = runCli(['validate', 'ip.proto == tcp']);
    expect([proto.status, proto.stdout]).toEqual([
      1,
      'Filter parsing error (1:13):\nip.proto == tcp\n            ^^ invalid digit found in string while parsing with radix 16\na Bytes value is written in quotes: ip.proto == "tcp"\n',
    ]);
    const network = runCli(['explain', 'ip.src == 10.0.0.0/8']);
    expect([network.status, network.stdout]).toEqual([
      1,
      'Filter parsing error (1:11):\nip.src == 10.0.0.0/8\n          ^^^^^^^^^^ couldn\'t parse address in network: invalid IP address syntax\n== compares one address; for a network write ip.src in {10.0.0.0/8}\n',
    ]);
    const filter = runCli(['validate', '--scheme', 'filter', 'udp.dstport == 53']);
    expect([filter.status, filter.stdout.split('\n').at(-2)]).toEqual([1, 'udp.dstport is a firewall rule field: an ATP filter may use only ip.src, ip.dst, tcp.srcport or tcp.dstport']);
    const list = runCli(['validate', 'ip.src in $office']);
    expect([list.status, list.stdout, list.stderr]).toEqual([0, 'valid\n', 'edgesim: warning: $office is not checked without a configuration: an account list of that name must exist where the rule is used\n']);
  });

  it('an unknown identifier named like an Object.prototype member is the engine\'s error, exit 1, no internal error', () => {
    const r = runCli(['validate', 'constructor == 1']);
    expect([r.status, r.stdout, r.stderr]).toEqual([1, 'Filter parsing error (1:1):\nconstructor == 1\n^^^^^^^^^^^ unknown identifier\n', '']);
  });
});

describe('edgesim explain', () => {
  it('shows tokens with offsets, the typed tree and the plan', () => {
    const r = runCli(['explain', 'tcp.dstport in {80 443 1000..2000 1500..3000} and not ip.src == 10.0.0.1']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  0..11      field       "tcp.dstport"');
    expect(r.stdout).toContain('      lhs: field tcp.dstport (Int)');
    expect(r.stdout).toContain('int set: 4 items -> 3 merged ranges [80 443 1000..3000], linear scan');
    expect(r.stdout).toContain('ip eq, IPv4 only (other family: false)');
    expect(r.stdout).toContain('Canonical form: tcp.dstport in {80 443 1000..2000 1500..3000} and not ip.src == 10.0.0.1');
  });

  it('prints the parse error and exits 1 for an invalid expression', () => {
    const r = runCli(['explain', '--scheme', 'filter', 'ip.src in $x']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('Filter parsing error (1:8):\nip.src in $x\n       ^^^^^ cannot perform this operation on type Ip\n');
  });
});
