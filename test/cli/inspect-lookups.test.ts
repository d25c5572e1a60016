import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

function first(args: string[]): Record<string, unknown> {
  const r = runCli(['inspect', 'pcaps/geo.pcap', '--limit', '1', ...args]);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('edgesim inspect lookups', () => {
  it('shows the country and ingress data center a replay would give the packet', () => {
    const p = first([]);
    // the geo sample's clients are in US, DE and BR (checked against the bundled GeoIP db by the synth tests)
    expect(['US', 'DE', 'BR']).toContain(p['ip.src.country']);
    expect(p['cf.colo.name']).toMatch(/^[a-z]{3}\d{2}$/);
    expect(p['cf.colo.region']).toMatch(/^[A-Z]+$/);
    expect(p).not.toHaveProperty('ip.src.asnum'); // no ASN database given
  });

  it('honours --colo, and --no-lookups shows only what the capture holds', () => {
    expect(first(['--colo', 'lax01'])).toMatchObject({ 'cf.colo.name': 'lax01', 'cf.colo.region': 'WNAM' });
    const bare = first(['--no-lookups']);
    for (const f of ['ip.src.country', 'ip.dst.country', 'cf.colo.name', 'cf.colo.region']) expect(bare).not.toHaveProperty(f);
    expect(bare).toHaveProperty('ip.src');
  });
});
