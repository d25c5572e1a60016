import { readFileSync } from 'node:fs';
// The field reference names exactly the firewall scheme's fields, each once, with the scheme's type,
// and says something about each (a unit and a sentence).
import { describe, expect, it } from 'vitest';
import { FIELD_REFERENCE } from '../../src/fields/reference.js';
import { displayType, FIREWALL_SCHEME } from '../../src/lang/index.js';

describe('field reference', () => {
  it('has one entry per firewall-scheme field, and no other', () => {
    const names = FIELD_REFERENCE.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(FIREWALL_SCHEME.fieldNames().sort());
  });

  it("gives each field the scheme's type, a unit and a meaning", () => {
    for (const f of FIELD_REFERENCE) {
      expect(f.type, f.name).toBe(displayType(FIREWALL_SCHEME.field(f.name)!.type));
      expect(f.unit, f.name).not.toBe('');
      expect(f.meaning, f.name).toMatch(/^[A-Z].{20,}\.$/);
    }
  });

  it('states the units users get wrong', () => {
    const ref = new Map(FIELD_REFERENCE.map((f) => [f.name, f]));
    expect(ref.get('ip.hdr_len')!.unit).toBe('32-bit words');
    expect(ref.get('ip.len')!.meaning).toContain('plus the 40-byte fixed header');
    expect(ref.get('tcp')!.meaning).toContain('ip.proto == "tcp"');
  });
});

describe('the field table in docs/fields.md', () => {
  it('is the reference, field for field', () => {
    const section = readFileSync(new URL('../../docs/fields.md', import.meta.url), 'utf8');
    const rows = [...section.matchAll(/^\| `([^`]+)` \| (\w+) \| ([^|]+) \| (.+) \|$/gm)].map((m) => ({ name: m[1], type: m[2], unit: m[3]!.trim(), meaning: m[4]!.replace(/\\\|/g, '|') }));
    expect(rows).toEqual(FIELD_REFERENCE.map((f) => ({ name: f.name, type: f.type, unit: f.unit, meaning: f.meaning })));
  });

  it('is linked from the README', () => {
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain('](docs/fields.md)');
  });
});
