// loadConfig reads what --config reads: a file in any format, several merged by resource, or an
// object; a simulator built from Terraform state and an ATP file replays as one built from the snapshot.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulator, loadConfig, type VerdictRecord } from '../../src/lib/index.js';

const ROOT = path.join(import.meta.dirname, '../..');
const FIX = path.join(ROOT, 'test/config/inputs/fixtures');

async function records(config: Awaited<ReturnType<typeof loadConfig>>): Promise<VerdictRecord[]> {
  const out: VerdictRecord[] = [];
  for await (const r of (await createSimulator(config)).replay(path.join(ROOT, 'examples/demo.pcap'))) out.push(r);
  return out;
}

describe('loadConfig', () => {
  it('takes several files in any format, merged by resource, with their notes', async () => {
    const files = [path.join(FIX, 'terraform-v5-state.json'), path.join(FIX, 'demo-atp.json')];
    const config = await loadConfig(files);
    expect(config.source).toBe(files.join(', '));
    expect(config.notes).toEqual(['module.fw.cloudflare_ruleset.managed: phase magic_transit_managed is not simulated']);
    expect(await records(config)).toEqual(await records(await loadConfig(path.join(ROOT, 'examples/demo-snapshot.json'))));
  });

  it('reads one file in another format as well', async () => {
    const config = await loadConfig(path.join(FIX, 'octorules-account.yaml'));
    expect(config.snapshot.rulesets?.[0]?.rules).toHaveLength(10);
    expect(config.notes).toEqual(['network_ddos_rules: this phase is not simulated']);
  });
});
