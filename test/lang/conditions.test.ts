// The conditions of an expression for condition coverage: every operand of and/or/xor/not, outermost
// first and left to right, parentheses unwrapped; a probe sees each one's value for a packet even
// where the compiled predicate short-circuits, and agrees with the interpreter on the whole.
import { describe, expect, it } from 'vitest';
import { ConditionProbe, FIREWALL_SCHEME, interpret, parse, printExpr } from '../../src/lang/index.js';
import { objectBinding, packet } from './packets.js';
import { S } from './schemes.js';

const binding = objectBinding(FIREWALL_SCHEME);
const probe = (text: string) => new ConditionProbe(parse(text, FIREWALL_SCHEME), binding);

describe('conditions', () => {
  it('are the operands of and/or/xor/not, outermost first, left to right, without parentheses', () => {
    expect(probe('tcp.dstport == 22 and (ip.ttl < 5 or not ip.src in {10.0.0.0/8}) and (ip.len > 9 xor tcp.flags.syn)').texts).toEqual([
      'tcp.dstport == 22',
      'ip.ttl < 5 or not ip.src in {10.0.0.0/8}',
      'ip.ttl < 5',
      'not ip.src in {10.0.0.0/8}',
      'ip.src in {10.0.0.0/8}',
      'ip.len > 9 xor tcp.flags.syn',
      'ip.len > 9',
      'tcp.flags.syn',
    ]);
  });

  it('a single comparison has none', () => {
    expect(probe('tcp.dstport in {22 2222}').texts).toEqual([]);
  });

  it('an operand after the one that settles the value is still seen', () => {
    const p = probe('ip.proto == "tcp" or tcp.dstport == 22');
    const tcp80 = packet(FIREWALL_SCHEME, { 'ip.proto': 'tcp', 'tcp.dstport': 80 });
    expect(p.matches(tcp80)).toBe(true);
    expect(p.condition(1, tcp80)).toEqual({ isTrue: false, isFalse: true });
    const udp = packet(FIREWALL_SCHEME, { 'ip.proto': 'udp' });
    expect([p.condition(0, udp), p.condition(1, udp)]).toEqual([
      { isTrue: false, isFalse: true },
      { isTrue: false, isFalse: true },
    ]);
  });

  it('a vector condition is seen true and false by its elements', () => {
    const p = new ConditionProbe(parse('any(ports[*] == 22 or ports[*] > 1000)', S), objectBinding(S));
    expect(p.texts).toEqual(['ports[*] == 22', 'ports[*] > 1000']);
    const ports = packet(S, { ports: [22, 80] });
    expect([p.condition(0, ports), p.condition(1, ports)]).toEqual([
      { isTrue: true, isFalse: true },
      { isTrue: false, isFalse: true },
    ]);
  });

  it('the whole agrees with the interpreter', () => {
    const text = 'ip.ttl < 5 or not (tcp.dstport == 22 and ip.src in {10.0.0.0/8})';
    const ast = parse(text, FIREWALL_SCHEME);
    const p = new ConditionProbe(ast, binding);
    for (const values of [{ 'ip.ttl': 3 }, { 'ip.ttl': 9, 'tcp.dstport': 22, 'ip.src': '10.1.1.1' }, { 'ip.ttl': 9, 'tcp.dstport': 22, 'ip.src': '11.1.1.1' }]) {
      const pk = packet(FIREWALL_SCHEME, values);
      expect(p.matches(pk), printExpr(ast)).toBe(interpret(ast, binding, pk));
    }
  });
});
