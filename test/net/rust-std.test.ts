// Differential test against Rust's std::net parsers and Display (the vendor's Rules engine is
// written in Rust and parses addresses with them). fixtures/rust-std-ip.json holds ~4000 inputs —
// hand-picked edge cases plus random token soups and random well-formed addresses — with what Rust
// accepted and printed; fixtures/rust-std-oracle.rs regenerates it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIPv4, parseIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6, parseIPv6 } from '../../src/net/ipv6.js';

type Row = [input: string, v4: string | null, v6: string | null];
const rows = JSON.parse(readFileSync(new URL('./fixtures/rust-std-ip.json', import.meta.url), 'utf8')) as Row[];

function ours4(text: string): string | null {
  const v = parseIPv4(text);
  return v < 0 ? null : formatIPv4(v);
}

function ours6(text: string): string | null {
  const w = parseIPv6(text);
  return w === null ? null : formatIPv6(w);
}

describe('agreement with Rust std::net', () => {
  it('has a fixture with both accepted and rejected inputs of each family', () => {
    expect(rows.length).toBeGreaterThan(4000);
    expect(rows.filter((r) => r[1] !== null).length).toBeGreaterThan(10);
    expect(rows.filter((r) => r[2] !== null).length).toBeGreaterThan(1000);
    expect(rows.filter((r) => r[2] === null).length).toBeGreaterThan(1000);
  });

  it('accepts and rejects exactly the IPv4 text Rust does, and prints it the same', () => {
    const differ = rows.filter(([input, v4]) => ours4(input) !== v4);
    expect(differ).toEqual([]);
  });

  it('accepts and rejects exactly the IPv6 text Rust does, and prints it the same', () => {
    const differ = rows.filter(([input, , v6]) => ours6(input) !== v6);
    expect(differ).toEqual([]);
  });
});
