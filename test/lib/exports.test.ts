// The library's public surface is the list in docs/library.md (the README links it): an export added
// or removed without updating that list fails here. Values are read from the module itself; types
// from its declaration file as built.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as edgesim from '../../src/lib/index.js';
import * as vitestEntry from '../../src/lib/vitest.js';
import { ROOT } from '../helpers/cli.js';

/** The names docs/library.md's export list gives: a call's name, or every name after a bullet's colon to the sentence's end (errors, types). */
function documented(): string[] {
  const readme = readFileSync(path.join(ROOT, 'docs/library.md'), 'utf8');
  const from = readme.indexOf('Exports (`test/lib/exports.test.ts`');
  const end = readme.indexOf('\n\n', readme.indexOf('\n- ', from));
  const list = readme.slice(from, end < 0 ? undefined : end).trimEnd();
  return list.split('\n- ').slice(1).flatMap((bullet) => {
    const call = /^`(\w+)\(/.exec(bullet);
    if (call !== null) return [call[1]!];
    // the names after the colon, to the end of that sentence (what follows explains them)
    const names = bullet.slice(bullet.indexOf(':'));
    const end = names.search(/\.(\s|$)/);
    return [...names.slice(0, end < 0 ? undefined : end).matchAll(/`(\w+)`/g)].map((m) => m[1]!);
  });
}

/** Every name src/lib/index.ts exports, types included. */
function declared(): string[] {
  const text = readFileSync(path.join(ROOT, 'src/lib/index.ts'), 'utf8');
  return [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type /, '').split(' as ').pop()!));
}

describe('the public surface', () => {
  it('is exactly the list in docs/library.md', () => {
    const docs = new Set(documented());
    expect(declared().sort()).toEqual(documented().sort());
    // every value export is documented (a type cannot be enumerated at run time; declared() covers it)
    for (const name of Object.keys(edgesim)) expect(docs.has(name), name).toBe(true);
  });

  it('is linked from the README', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('](docs/library.md)');
  });

  it('edgesim/vitest exports the matchers object alone', () => {
    expect(Object.keys(vitestEntry)).toEqual(['matchers']);
    expect(Object.keys(vitestEntry.matchers).sort()).toEqual(['toBeDecidedBy', 'toDrop', 'toPass']);
  });
});
