// The one JSON parsing every reader shares (configurations, API bodies and state, credentials, ATP
// options, summaries): JSON.parse's value, and a refusal at the line and column for what JSON.parse
// lets through but a reader must not take — a key given twice, a key named __proto__, nesting past
// MAX_DEPTH — found by a quick count for ordinary documents and an exact scan otherwise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, parseJson } from '../../src/config/json.js';

const refusal = (text: string, options = {}): string => {
  try {
    parseJson(text, options);
  } catch (err) {
    expect(err).toBeInstanceOf(SyntaxError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

/** JSON values whose objects have no key named __proto__ (fast-check may draw one) */
const jsonValue = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('"__proto__"'));

describe('parseJson', () => {
  it('is JSON.parse for any document without a repeated key, pretty-printed or not', () => {
    fc.assert(
      fc.property(jsonValue, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses a key given twice in one object, naming both places, however the key is escaped', () => {
    expect(refusal('{\n  "ref": "a",\n  "expression": "x",\n  "ref": "b"\n}')).toBe('duplicate key "ref" at line 4, column 3 (first at line 2, column 3): a key may be given once in an object');
    expect(refusal('{"ab": 1, "a\\u0062": 2}')).toMatch(/^duplicate key "ab" at line 1, column 11/);
    expect(refusal('[{"x": {"k": 1}}, {"x": {"k": 1, "k" : 2}}]')).toMatch(/^duplicate key "k" at line 1, column 34/);
    // the same key in different objects, and a value that looks like a key, are fine
    expect(parseJson('{"a": {"a": 1}, "b": ["a", "a"], "c": "\\"a\\": 1", "d": "x\\":"}')).toEqual({ a: { a: 1 }, b: ['a', 'a'], c: '"a": 1', d: 'x":' });
  });

  it('finds a repeated key inserted anywhere in any document', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }).filter((k) => k !== '__proto__'), jsonValue, { minKeys: 1 }), fc.nat(), (object, pick) => {
        const keys = Object.keys(object);
        const key = keys[pick % keys.length]!;
        const text = `${JSON.stringify(object).slice(0, -1)}, ${JSON.stringify(key)}: null}`;
        expect(refusal(text).startsWith(`duplicate key ${JSON.stringify(key)} at line 1, column `)).toBe(true);
      }),
    );
  });

  it('refuses a key named __proto__ (its value would become a copy’s prototype), unless the keys are names', () => {
    const text = '{"items": [{"__proto__": {"ip": "0.0.0.0/0"}}]}';
    expect(refusal(text)).toBe('a key named "__proto__" at line 1, column 13: not a key of this document (it would be read as the object\'s prototype)');
    expect(refusal('{"\\u005f_proto__": 1}')).toMatch(/^a key named "__proto__" at line 1, column 2/);
    const names = parseJson('{"accounts": {"__proto__": "write"}}', { keysAreNames: true }) as { accounts: object };
    expect(Object.getOwnPropertyDescriptor(names.accounts, '__proto__')?.value).toBe('write');
    expect(parseJson('{"a": "__proto__"}')).toEqual({ a: '__proto__' });
  });

  it(`refuses nesting past ${MAX_DEPTH} levels in one line, 100,000 levels too`, () => {
    const nested = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => parseJson(nested(MAX_DEPTH))).not.toThrow();
    expect(refusal(nested(MAX_DEPTH + 1))).toBe(`nested deeper than ${MAX_DEPTH} levels at line 1, column ${MAX_DEPTH + 1}: not a document edgesim reads`);
    expect(refusal(`{"result": ${nested(100_000)}}`)).toMatch(/^nested deeper than 512 levels at line 1, column /);
  });

  it('still names a syntax error at its place, without quoting the text', () => {
    expect(refusal('{"a": 1,\n "b": }')).toBe('invalid JSON at line 2, column 7: Unexpected character');
  });
});
