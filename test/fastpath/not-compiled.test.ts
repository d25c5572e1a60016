// What the fast path does not write, and why: a rule it cannot compile goes to the firewall's own
// predicate on the decoded frame, and the replay's engine counts (`decoded_reasons`) name the field
// and the construct. The firewall's scheme has none of these today (its parser refuses first), so
// they are written against a wider scheme: the firewall's fields plus a field of each type and
// shape the fast path has no reader for, the language's concat(), and lists of Int and Bytes —
// what the next field, function or list type added to the language will be.
import { describe, expect, it } from 'vitest';
import { Constants, writeCondition } from '../../src/fastpath/conditions.js';
import { FIELD_REGISTRY, fieldType } from '../../src/field-registry.js';
import { parse } from '../../src/lang/index.js';
import { bitSlice } from '../../src/lang/functions/bit-slice.js';
import { concat } from '../../src/lang/functions/concat.js';
import { Scheme, type SchemeSpec } from '../../src/lang/scheme.js';

const WIDER_SPEC: SchemeSpec = {
  fields: {
    ...Object.fromEntries(FIELD_REGISTRY.filter((f) => !('anyOf' in f)).map((f) => [f.name, fieldType(f)])),
    'ip.dscp': 'Int',
    'x.flag': 'Bool',
    'x.addr': 'Ip',
    'x.bytes': 'Bytes',
    'tcp.opts': { array: 'Int' },
    'http.hdr': { map: 'Bytes' },
  },
  functions: [bitSlice, concat],
  lists: ['Ip', 'Int', 'Bytes'],
};
const WIDER = new Scheme(WIDER_SPEC);

// bit_slice as the next version of the language might take it: any Bytes argument (a field with no
// raw reader, a computed or indexed one) and bounds that are not Int literals
const WIDER_BIT_SLICE = new Scheme({ ...WIDER_SPEC, functions: [{ ...bitSlice, checkParam: () => null }, concat] });

const written = (expression: string, lists: (name: string) => undefined = () => undefined, scheme = WIDER) => writeCondition(parse(expression, scheme), lists, new Constants(), 0);

const CASES: Array<[expression: string, reason: string]> = [
  ['ip.dscp == 1', 'field ip.dscp: not compiled'],
  ['x.flag', 'field x.flag: not compiled'],
  ['x.addr == 192.0.2.1', 'field x.addr: not compiled'],
  ['x.bytes == "a"', 'field x.bytes: not compiled'],
  ['x.bytes in {"a" "b"}', 'field x.bytes: not compiled'],
  ['tcp.opts[0] == 1', 'field tcp.opts: indexed access not compiled'],
  ['http.hdr["a"] == "x"', 'field http.hdr: indexed access not compiled'],
  ['any(tcp.opts[*] == 1)', 'any() is not compiled'],
  ['all(tcp.opts[*] == 1)', 'all() is not compiled'],
  ['concat(tcp, tcp) == "a"', 'field concat(): not compiled'],
  ['ip.src in $nolist', 'field ip.src: list $nolist not compiled'],
  ['tcp.dstport in $ports', 'field tcp.dstport: inList not compiled'],
  // the first comparison it cannot write names the rule's reason, wherever it stands
  ['ip.ttl in {1 2} and ip.dscp == 3', 'field ip.dscp: not compiled'],
  ['tcp.dstport == 22 or not x.flag', 'field x.flag: not compiled'],
];

const BIT_SLICES: Array<[expression: string, reason: string]> = [
  ['bit_slice(x.bytes, 0, 8) == 1', 'field bit_slice(): field x.bytes not compiled'],
  ['bit_slice(concat(tcp, tcp), 0, 8) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice("ab", 0, 8) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice(http.hdr["a"], 0, 8) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice(tcp, ip.ttl, 8) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice(tcp, "a", 8) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice(tcp, 0, ip.ttl) == 1', 'field bit_slice(): a computed argument is not compiled'],
  ['bit_slice(tcp, 0, "a") == 1', 'field bit_slice(): a computed argument is not compiled'],
];

describe('what the fast path does not write', () => {
  it.each(CASES)('%s: %s', (expression, reason) => {
    expect(written(expression)).toEqual({ notCompiled: reason });
  });

  it.each(BIT_SLICES)('a wider bit_slice: %s: %s', (expression, reason) => {
    expect(written(expression, undefined, WIDER_BIT_SLICE)).toEqual({ notCompiled: reason });
  });

  it('writes the same comparisons on the firewall fields of the wider scheme', () => {
    for (const expression of ['tcp.flags.syn', 'ip.ttl in {1 2}', 'tcp.dstport == 22', 'ip.src in {192.0.2.0/24}', 'tcp contains "a"', 'bit_slice(tcp, 104, 112) == 2']) {
      expect(written(expression), expression).toHaveProperty('expr', expect.any(String));
    }
  });
});
