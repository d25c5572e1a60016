// The architecture of README's Layout section, checked: which folders of src/ may import which, and
// no import cycles between modules (static, type-only and dynamic imports all count). A new folder
// must be added here, with what it may import, before its first import passes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const SRC = path.join(ROOT, 'src');

/** folder (or top-level module) -> the folders it may import */
const MAY_IMPORT: Record<string, string[]> = {
  errors: [],
  verdict: [],
  numbers: [],
  'terminal-text': [],
  // each protocol layer's fields: entry, place in the header, suite default, witness values
  layers: [],
  // every field's facts, which the stages derive their tables from
  'field-registry': ['layers'],
  'protection-components': [],
  net: ['errors', 'verdict', 'numbers'],
  lang: ['field-registry', 'net', 'errors', 'verdict', 'numbers', 'terminal-text'],
  capture: ['layers', 'net', 'errors', 'verdict', 'numbers'],
  // data center and region names are checked where a configuration names them
  config: ['protection-components', 'data', 'lang', 'net', 'errors', 'verdict', 'numbers', 'terminal-text'],
  data: ['capture', 'config', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  fields: ['field-registry', 'layers', 'capture', 'data', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  firewall: ['capture', 'config', 'fields', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  // the firewall's fast path: decides frames from their bytes, falling back to the decoder and the firewall
  fastpath: ['field-registry', 'layers', 'capture', 'data', 'fields', 'firewall', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  atp: ['protection-components', 'capture', 'config', 'data', 'fields', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  sim: ['protection-components', 'atp', 'capture', 'config', 'data', 'fields', 'fastpath', 'firewall', 'lang', 'net', 'errors', 'verdict', 'numbers', 'terminal-text'],
  report: ['protection-components', 'atp', 'config', 'sim', 'errors', 'verdict', 'numbers', 'terminal-text'],
  // the static analysis reads rulesets (config, lang), lists (data), ATP's protected space, the record for witnesses
  analysis: ['protection-components', 'field-registry', 'layers', 'atp', 'capture', 'config', 'data', 'firewall', 'lang', 'net', 'errors', 'verdict', 'numbers', 'terminal-text'],
  suite: ['protection-components', 'field-registry', 'layers', 'analysis', 'atp', 'capture', 'config', 'data', 'fields', 'firewall', 'lang', 'net', 'sim', 'errors', 'verdict', 'numbers', 'terminal-text'],
  api: ['protection-components', 'config', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  // Rules language -> BPF and Wireshark display filters (explain --bpf, bench beside tcpdump/tshark)
  translate: ['field-registry', 'capture', 'lang', 'net', 'errors', 'verdict', 'numbers'],
  // edgesim bench: throughput, per-rule profiling, reordering advice (asks the analysis), peers
  profile: ['field-registry', 'analysis', 'atp', 'capture', 'config', 'data', 'fastpath', 'fields', 'firewall', 'lang', 'net', 'sim', 'translate', 'errors', 'verdict', 'numbers', 'terminal-text'],
  // reviewers' formats: SARIF, GitHub workflow commands, job summaries, pull-request reports
  review: ['analysis', 'config', 'sim', 'suite', 'errors', 'verdict', 'numbers', 'terminal-text'],
  // the language server (edgesim lsp): the engine, lint, the registry, the analysis, bench's per-rule costs, in an editor
  lsp: ['protection-components', 'field-registry', 'analysis', 'capture', 'config', 'data', 'firewall', 'lang', 'profile', 'review', 'errors', 'verdict', 'numbers', 'terminal-text'],
  // serve's playground page: the language server's checks, a packet's trace (suite), an account read through the API's client
  playground: ['config', 'lsp', 'report', 'suite', 'errors', 'verdict', 'numbers', 'terminal-text'],
  // the library (`import … from 'edgesim'`): the stages, the suites' packets and traces; never the CLI
  lib: ['protection-components', 'analysis', 'atp', 'capture', 'config', 'data', 'fields', 'firewall', 'lang', 'net', 'review', 'sim', 'suite', 'errors', 'verdict', 'numbers', 'terminal-text'],
  cli: ['protection-components', 'analysis', 'api', 'atp', 'capture', 'config', 'data', 'fields', 'firewall', 'lang', 'lsp', 'net', 'playground', 'profile', 'report', 'review', 'sim', 'suite', 'translate', 'errors', 'verdict', 'numbers', 'terminal-text'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

const graph = new Map<string, string[]>();
for (const file of sources(SRC)) {
  const text = readFileSync(file, 'utf8');
  graph.set(
    file,
    [...text.matchAll(IMPORT)].map((m) => path.normalize(path.join(path.dirname(file), (m[1] ?? m[2]!).replace(/\.js$/, '.ts')))),
  );
}

const folderOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!.replace(/\.ts$/, '');

/** strongly connected components of more than one module (Tarjan) */
function cycles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(SRC, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the layout of src/', () => {
  it('declares every folder with what it may import', () => {
    const folders = [...new Set([...graph.keys()].map(folderOf))].sort();
    expect(folders.filter((f) => !(f in MAY_IMPORT))).toEqual([]);
  });

  it('imports across folders only as the layout allows', () => {
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
      const from = folderOf(file);
      for (const dep of deps) {
        const to = folderOf(dep);
        if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) wrong.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles()).toEqual([]);
  });

  it('resolves every relative import to a file', () => {
    const missing = [...graph].flatMap(([file, deps]) => deps.filter((d) => !graph.has(d)).map((d) => `${path.relative(SRC, file)} -> ${path.relative(SRC, d)}`));
    expect(missing).toEqual([]);
  });
});
