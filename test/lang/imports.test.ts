// src/lang imports no module in a circle (issue 8: the parser files, ast ↔ scheme). Relative
// imports, type-only ones included, form the graph; a depth-first search finds any cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../src/lang', import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)]
    .map((m) => resolve(dirname(file), m[1].replace(/\.js$/, '.ts')))
    .filter((f) => f.startsWith(ROOT));
}

function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const visit = (f: string, path: string[]) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      found.push(path.slice(path.indexOf(f)).concat(f).map((x) => relative(ROOT, x)));
      return;
    }
    state.set(f, 'open');
    for (const g of graph.get(f) ?? []) visit(g, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  return found;
}

describe('src/lang import graph', () => {
  it('has no cycle', () => {
    const files = modules(ROOT);
    expect(files.length).toBeGreaterThan(30);
    expect(cycles(files)).toEqual([]);
  });
});
