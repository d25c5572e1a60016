// The fast path against the reference path (decoder + evaluator) over every capture of the tcpdump
// corpus (many link types, VLANs, IPv6 extension headers, tunnels, truncated and malformed packets):
// per-packet NDJSON byte-identical and the same hit and decision counts per rule, with the rules
// read linearly, through the classifier and through the key index. The rules touch every field the fast path reads,
// in every kind of comparison; one ruleset also holds a looked-up field (absent here: no lookups;
// lookup-diff.test.ts runs them with lookups).
import { describe, expect, it } from 'vitest';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { FIELDS, lists, type Rule, run } from './helpers.js';



const WITH_LOOKUP: Rule[] = [
  ['ping', 'block', 'icmp.type == 8'],
  ['ssh', 'log', 'tcp.dstport == 22'],
  ['web', 'skip', 'tcp.dstport in {80 443}'],
  ['country', 'log', 'ip.src.country == "US"'],
  ['big', 'block', 'ip.len > 1000'],
];

describe('fast path vs decoder + evaluator over the tcpdump corpus', () => {
  it('gives byte-identical per-packet NDJSON and the same rule counters for every file', async () => {
    let fast = 0;
    let packets = 0;
    const differ: string[] = [];
    for (const name of corpusFiles()) {
      const file = corpusPath(name);
      for (const rules of [FIELDS, WITH_LOOKUP]) {
        const reference = await run(file, rules, { lists, mode: 'reference' });
        for (const mode of ['none', 'classifier', 'keys'] as const) {
          const got = await run(file, rules, { lists, mode });
          fast += got.fast;
          if (got.ndjson !== reference.ndjson || got.error !== reference.error || got.hits.join() !== reference.hits.join() || got.decided.join() !== reference.decided.join()) {
            differ.push(`${name} (${rules === FIELDS ? 'fields' : 'lookup'}, ${mode})`);
          }
        }
        packets += reference.ndjson.split('\n').length - 1;
      }
    }
    expect(differ).toEqual([]);
    // the fast path really decided most packets, not just handed everything back
    console.log(`fast ${fast} of ${packets * 2}`);
    expect(packets).toBeGreaterThan(20_000);
    expect(fast).toBeGreaterThan(packets);
  }, 120_000);
});
