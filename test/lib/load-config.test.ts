// loadConfig reads what --config reads: a file in any format, several merged by resource, or an
// object; a simulator built from Terraform state and an ATP file replays as one built from the snapshot.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSimulator, loadConfig, SnapshotError, type VerdictRecord } from '../../src/lib/index.js';

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

  it('takes an object in any format --config reads, as parsed from its file, with the same result as the file', async () => {
    const json = (name: string): object => JSON.parse(readFileSync(path.join(FIX, name), 'utf8')) as object;
    const objects: Array<[string, object]> = [
      ['terraform-v5-state.json', json('terraform-v5-state.json')],
      ['terraform-v4-state.json', json('terraform-v4-state.json')],
      ['vendor-entrypoint.json', json('vendor-entrypoint.json')],
      // the vendor SDK's ruleset: the response's result
      ['vendor-entrypoint.json', (json('vendor-entrypoint.json') as { result: object }).result],
      ['octorules-account.yaml', parseYaml(readFileSync(path.join(FIX, 'octorules-account.yaml'), 'utf8')) as object],
    ];
    for (const [file, object] of objects) {
      const fromFile = await loadConfig(path.join(FIX, file)).catch((e: unknown) => e);
      const fromObject = await loadConfig(object).catch((e: unknown) => e);
      if (fromFile instanceof SnapshotError) {
        // the vendor's entry point names account lists its file does not hold: the same problem either way
        expect(fromObject, file).toBeInstanceOf(SnapshotError);
        expect((fromObject as SnapshotError).issues.map((i) => i.message), file).toEqual(fromFile.issues.map((i) => i.message));
        continue;
      }
      const [a, b] = [fromFile as Awaited<ReturnType<typeof loadConfig>>, fromObject as Awaited<ReturnType<typeof loadConfig>>];
      expect(b.snapshot, file).toEqual(a.snapshot);
      expect(b.notes, file).toEqual(a.notes);
      expect(b.source, file).toBeUndefined();
    }
  });

  it('names a broken object by its format and the place in it', async () => {
    const state = JSON.parse(readFileSync(path.join(FIX, 'terraform-v5-state.json'), 'utf8')) as { values: { root_module: { child_modules: Array<{ resources: Array<{ values: { rules: Array<{ expression: string }> } }> }> } } };
    const rule = state.values.root_module.child_modules[0]!.resources.find((r) => Array.isArray(r.values.rules))!.values.rules[0]!;
    rule.expression = 'tcp.dstport == ';
    const err = await loadConfig(state).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotError);
    expect((err as Error).message).toMatch(/^the Terraform JSON object: .*rules\[0\].*expression/);
    // a snapshot object keeps the snapshot's own paths, without a file
    const bad = await loadConfig({ rulesets: [{ name: 'r', phase: 'edge_transit', kind: 'root', rules: [{ expression: 'tcp.dstport == ', action: 'block' }] }] }).catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/^rulesets\[0\]\.rules\[0\]\.expression/);
  });
});
