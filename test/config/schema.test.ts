// The validator the API and the snapshot loader share: messages and paths, defaults and aliases,
// derived create/patch/stored schemas, and invariants over arbitrary input (fast-check): it never
// throws on data, never mutates its input, and normalising is idempotent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VOCABULARY } from '../../src/config/checks.js';
import {
  ALLOWLIST_ENTRY, createSchema, FILTER, LIST, LIST_ITEM, patchSchema, PREFIX, RULESET, RULESET_RULE, SNAPSHOT_SCHEMA, STATUS, storedSchema, COMPONENT_RULES, type Resource,
} from '../../src/config/resources.js';
import { dottedPath, jsonPointer, MAX_ISSUES, parseWithSchema, type JsonSchema } from '../../src/config/schema.js';

const parse = (schema: JsonSchema, value: unknown) => parseWithSchema(schema, value, VOCABULARY);
const messages = (schema: JsonSchema, value: unknown) => parse(schema, value).issues.map((i) => `${dottedPath(i.path)}: ${i.message}`);

const RESOURCES: Resource[] = [STATUS, PREFIX, ALLOWLIST_ENTRY, ...Object.values(COMPONENT_RULES), FILTER, RULESET_RULE, RULESET, LIST, LIST_ITEM];

describe('paths', () => {
  it('dotted paths and JSON pointers', () => {
    expect(dottedPath(['rulesets', 0, 'rules', 2, 'expression'])).toBe('rulesets[0].rules[2].expression');
    expect(dottedPath([3, 'prefix'])).toBe('[3].prefix');
    expect(dottedPath([])).toBe('(root)');
    expect(jsonPointer(['a/b', 0, 'c~d'])).toBe('/a~1b/0/c~0d');
  });
});

describe('messages', () => {
  it('wrong types name the expected and the actual JSON type', () => {
    expect(messages(createSchema(PREFIX), { prefix: 10, excluded: 'no', comment: null })).toEqual([
      'prefix: must be a string (got integer)',
      'excluded: must be a boolean (got string)',
      'comment: must be a string (got null)',
    ]);
    expect(messages(SNAPSHOT_SCHEMA, { prefixes: {} })).toEqual(['prefixes: must be an array (got object)']);
    expect(messages(SNAPSHOT_SCHEMA, [])).toEqual(['(root): must be an object (got array)']);
  });

  it('unknown keys are named with the keys that are allowed', () => {
    expect(messages(createSchema(FILTER), { expression: 'tcp.dstport == 1', mode: 'enabled', modes: 'x' })).toEqual([
      'modes: unknown key (expected one of: expression, mode)',
    ]);
  });

  it('the first MAX_ISSUES issues are kept in full, the rest only counted', () => {
    const body: Record<string, unknown> = { expression: 'tcp.dstport == 1', mode: 'enabled' };
    for (let i = 0; i < 1000; i++) body[`k${i}`] = i;
    const { issues, omitted } = parse(createSchema(FILTER), body);
    expect(issues).toHaveLength(MAX_ISSUES);
    expect(issues[MAX_ISSUES - 1].path).toEqual([`k${MAX_ISSUES - 1}`]);
    expect(omitted).toBe(1000 - MAX_ISSUES);
    expect(parse(createSchema(FILTER), { expression: 'tcp.dstport == 1', mode: 'enabled', x: 1 }).omitted).toBe(0);
  });

  it('keys named like Object.prototype members are unknown keys, not schema lookups', () => {
    const body = JSON.parse('{"prefix": "10.0.0.0/8", "constructor": 1, "__proto__": {"excluded": true}, "toString": "x"}');
    expect(messages(createSchema(PREFIX), body)).toEqual([
      'constructor: unknown key (expected one of: prefix, comment, excluded)',
      '__proto__: unknown key (expected one of: prefix, comment, excluded)',
      'toString: unknown key (expected one of: prefix, comment, excluded)',
    ]);
    expect(messages(createSchema(RULESET), { name: 'x', kind: 'root', phase: 'constructor' })).toEqual([
      'phase: must be one of "edge_transit", "magic_transit" (got "constructor")',
    ]);
  });

  it('where any key is allowed, a "__proto__" key is kept as an own key, as JSON.parse made it, not set as the copy\'s prototype', () => {
    const { value, issues } = parse({ type: 'object' }, JSON.parse('{"__proto__": {"a": "write"}, "b": 1}'));
    expect(issues).toEqual([]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ a: 'write' });
  });

  it('missing required fields, enums, lengths, item counts', () => {
    expect(messages(createSchema(COMPONENT_RULES.syn_protection), { scope: 'region', name: '', mode: 'on', rate_sensitivity: 'extreme' })).toEqual([
      'name: must not be empty',
      'mode: must be one of "enabled", "disabled", "monitoring" (got "on")',
      'rate_sensitivity: must be one of "low", "medium", "high" (got "extreme")',
    ]);
    expect(messages(createSchema(FILTER), {})).toEqual(['expression: is required', 'mode: is required']);
    expect(messages(createSchema(PREFIX), { prefix: '10.0.0.0/8', comment: 'x'.repeat(1025) })).toEqual(['comment: must be at most 1024 characters long (got 1025)']);
  });

  it('addresses: CIDR required for prefixes, single addresses allowed in the allowlist, host bits refused', () => {
    expect(messages(createSchema(PREFIX), { prefix: '192.0.2.1' })).toEqual(['prefix: "192.0.2.1": not a prefix in CIDR notation (address/length)']);
    expect(messages(createSchema(ALLOWLIST_ENTRY), { prefix: '192.0.2.1' })).toEqual([]);
    expect(messages(createSchema(ALLOWLIST_ENTRY), { prefix: '2001:db8::1/64' })).toEqual(['prefix: "2001:db8::1/64": host bits are set (did you mean 2001:db8::/64?)']);
    expect(messages(createSchema(LIST_ITEM), { ip: '10.0.0.256' })).toEqual(['ip: "10.0.0.256": not an IPv4 or IPv6 address']);
  });

  it('expressions keep the Rules-language message exactly', () => {
    const { issues } = parse(createSchema(RULESET_RULE), { action: 'block', expression: 'tcp.dstport == "80"' });
    expect(issues).toEqual([{
      path: ['expression'],
      kind: 'invalid_expression',
      message: 'Filter parsing error (1:16):\ntcp.dstport == "80"\n               ^^^^ expected digit\n',
    }]);
  });
});

describe('normalisation', () => {
  it('fills the vendor defaults', () => {
    expect(parse(createSchema(COMPONENT_RULES.syn_protection), { scope: 'global', name: 'global', mode: 'enabled' }).value).toEqual({
      scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium', mitigation_type: 'challenge',
    });
    expect(parse(createSchema(COMPONENT_RULES.tcp_flow_protection), { scope: 'global', name: 'global', mode: 'enabled' }).value).not.toHaveProperty('mitigation_type');
    expect(parse(createSchema(ALLOWLIST_ENTRY), { prefix: '192.0.2.1' }).value).toEqual({ prefix: '192.0.2.1', comment: '', enabled: false });
    expect(parse(createSchema(RULESET_RULE), { action: 'block', expression: 'ip.src == 192.0.2.1' }).value).toEqual({ action: 'block', expression: 'ip.src == 192.0.2.1', enabled: true });
  });

  it('maps the vendor phase spelling to the canonical one', () => {
    const { value, issues } = parse(createSchema(RULESET), { name: 'x', kind: 'root', phase: 'magic_transit' });
    expect(issues).toEqual([]);
    expect(value).toEqual({ name: 'x', kind: 'root', phase: 'edge_transit', rules: [] });
    expect(messages(createSchema(RULESET), { name: 'x', kind: 'root', phase: 'http_request_firewall_custom' })).toEqual([
      'phase: must be one of "edge_transit", "magic_transit" (got "http_request_firewall_custom")',
    ]);
  });

  it('patch schemas allow only changeable fields and fill no defaults', () => {
    expect(Object.keys(patchSchema(PREFIX).properties ?? {})).toEqual(['comment', 'excluded']);
    expect(Object.keys(patchSchema(COMPONENT_RULES.syn_protection).properties ?? {})).toEqual(['mode', 'rate_sensitivity', 'burst_sensitivity', 'mitigation_type']);
    expect(Object.keys(patchSchema(COMPONENT_RULES.tcp_flow_protection).properties ?? {})).toEqual(['mode', 'rate_sensitivity', 'burst_sensitivity']);
    expect(parse(patchSchema(COMPONENT_RULES.syn_protection), {}).value).toEqual({});
  });

  it('server fields are refused in request bodies but accepted in the stored form', () => {
    const withId = { id: 'f174e90a-fafe-4643-bbbc-4a0ed4fc8415', prefix: '10.0.0.0/8', created_on: '2022-01-01T13:06:04.721954+01:00' };
    expect(messages(createSchema(PREFIX), withId)).toEqual([
      'id: unknown key (expected one of: prefix, comment, excluded)',
      'created_on: unknown key (expected one of: prefix, comment, excluded)',
    ]);
    expect(messages(storedSchema(PREFIX), withId)).toEqual([]);
    expect(messages(storedSchema(PREFIX), { ...withId, created_on: 'yesterday' })).toEqual(['created_on: "yesterday" is not an ISO-8601 timestamp']);
  });

  it('the field tables are consistent: patch fields are create fields, create fields are stored fields', () => {
    for (const r of RESOURCES) {
      const stored = Object.keys(storedSchema(r).properties ?? {});
      const created = Object.keys(createSchema(r).properties ?? {});
      const patched = Object.keys(patchSchema(r).properties ?? {});
      expect(created.every((k) => stored.includes(k)), r.name).toBe(true);
      expect(patched.every((k) => created.includes(k)), r.name).toBe(true);
    }
  });
});

describe('invariants over arbitrary input', () => {
  const schemas = RESOURCES.flatMap((r) => [createSchema(r), patchSchema(r), storedSchema(r)]).concat([SNAPSHOT_SCHEMA]);

  it('never throws, never mutates the input, and re-parsing a clean result changes nothing', () => {
    fc.assert(fc.property(fc.constantFrom(...schemas), fc.jsonValue({ maxDepth: 4 }), (schema, value) => {
      const before = JSON.stringify(value);
      const first = parse(schema, value);
      expect(JSON.stringify(value)).toBe(before);
      if (first.issues.length === 0) {
        const second = parse(schema, first.value);
        expect(second.issues).toEqual([]);
        expect(second.value).toEqual(first.value);
      }
    }), { numRuns: 2000 });
  });

  it('near-miss snapshots (right keys, arbitrary values) give issues, never a crash', () => {
    const leaf = fc.jsonValue({ maxDepth: 1 });
    const rule = fc.dictionary(fc.constantFrom('action', 'expression', 'ref', 'id', 'action_parameters'), leaf);
    const ruleset = fc.dictionary(fc.constantFrom('name', 'kind', 'phase', 'rules'), fc.oneof(leaf, fc.array(fc.oneof(rule, leaf), { maxLength: 3 })));
    const list = fc.dictionary(fc.constantFrom('name', 'kind', 'items'), fc.oneof(leaf, fc.array(fc.oneof(fc.dictionary(fc.constantFrom('ip', 'comment'), leaf), leaf), { maxLength: 3 })));
    const component = fc.dictionary(fc.constantFrom('rules', 'filters'), fc.oneof(leaf, fc.array(fc.oneof(fc.dictionary(fc.constantFrom('scope', 'name', 'mode'), leaf), leaf), { maxLength: 3 })));
    const snapshot = fc.dictionary(
      fc.constantFrom('tcp_protection_status', 'prefixes', 'allowlist', 'syn_protection', 'tcp_flow_protection', 'rulesets', 'lists'),
      fc.oneof(leaf, component, fc.array(fc.oneof(ruleset, list, fc.dictionary(fc.constantFrom('prefix'), leaf), leaf), { maxLength: 3 })),
    );
    fc.assert(fc.property(snapshot, (value) => {
      const { issues } = parse(SNAPSHOT_SCHEMA, value);
      for (const issue of issues) expect(typeof issue.message).toBe('string');
    }), { numRuns: 400 });
  });

  const prefixBody = fc.record({
    prefix: fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 })).map(([a, len]) => {
      const net = len === 0 ? 0 : (a & (0xffffffff << (32 - len))) >>> 0;
      return `${net >>> 24}.${(net >>> 16) & 255}.${(net >>> 8) & 255}.${net & 255}/${len}`;
    }),
    comment: fc.string({ maxLength: 50 }),
    excluded: fc.boolean(),
  }, { requiredKeys: ['prefix'] });

  it('every well-formed prefix body is accepted and comes back with its fields unchanged and defaults filled', () => {
    fc.assert(fc.property(prefixBody, (body) => {
      const { value, issues } = parse(createSchema(PREFIX), body);
      expect(issues).toEqual([]);
      expect(value).toEqual({ comment: '', excluded: false, ...body });
    }), { numRuns: 500 });
  });

  it('a body with host bits set is always refused with the network it probably meant', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.integer({ min: 0, max: 31 }), (addr, len) => {
      const net = len === 0 ? 0 : (addr & (0xffffffff << (32 - len))) >>> 0;
      fc.pre(net !== addr >>> 0);
      const text = `${addr >>> 24}.${(addr >>> 16) & 255}.${(addr >>> 8) & 255}.${addr & 255}/${len}`;
      const [issue] = parse(createSchema(PREFIX), { prefix: text }).issues;
      expect(issue.kind).toBe('invalid_address');
      expect(issue.message).toContain(`did you mean ${net >>> 24}.${(net >>> 16) & 255}.${(net >>> 8) & 255}.${net & 255}/${len}?`);
    }), { numRuns: 500 });
  });
});
