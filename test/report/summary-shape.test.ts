import { beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import { checkSummary } from '../../src/report/summary-shape.js';
import { replayFile } from '../../src/sim/replay.js';

let demo: string;

beforeAll(async () => {
  const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
  demo = JSON.stringify({ ...report, configuration: 'examples/demo-snapshot.json', warnings });
});

/** the demo summary after `change` */
function problem(change: (r: Record<string, any>) => void): string | null {
  const r = JSON.parse(demo) as Record<string, any>;
  change(r);
  const checked = checkSummary(r);
  return 'problem' in checked ? checked.problem : null;
}

describe('checking a saved summary before rendering it', () => {
  it('accepts what replay --format json writes, with or without lint findings', () => {
    expect(problem(() => {})).toBeNull();
    expect(problem((r) => (r.lint = [{ ruleset: 'rs', rule: 'r1', kind: 'unreachable', message: 'shadowed by r0' }]))).toBeNull();
  });

  it('names the first field that is missing or of the wrong type, by its path', () => {
    expect(problem((r) => delete r.series)).toBe('series: is missing');
    expect(problem((r) => (r.packets = '12'))).toBe('packets: must be a number (got string)');
    expect(problem((r) => (r.series.counts.firewall[2] = null))).toBe('series.counts.firewall[2]: must be a number (got null)');
    expect(problem((r) => (r.rules[3].enabled = 'yes'))).toBe('rules[3].enabled: must be a boolean (got string)');
    expect(problem((r) => (r.drops.topSources.entries = {}))).toBe('drops.topSources.entries: must be an array (got object)');
    expect(problem((r) => (r.atp.components.syn_protection.scopes[0].mitigations[0].end = 'later'))).toBe(
      'atp.components.syn_protection.scopes[0].mitigations[0].end: must be a number or null (got string)',
    );
    expect(problem((r) => (r.labels = 3))).toBe('labels: must be an object or null (got integer)');
    expect(problem((r) => (r.lint = [{ rule: 'r1' }]))).toBe('lint[0].kind: is missing');
    expect(problem((r) => delete r.droppedByStage.firewall)).toBe('droppedByStage.firewall: is missing');
    expect(problem((r) => (r.droppedByStage.later_stage = '3'))).toBe('droppedByStage.later_stage: must be a number (got string)');
    expect(problem((r) => (r.droppedByStage.later_stage = 3))).toBeNull();
  });

  it('refuses JSON that is not a summary at all, and columns of different lengths', () => {
    expect(checkSummary([1, 2])).toEqual({ problem: '(root): must be an object (got array)' });
    expect(problem((r) => r.series.counts.pass.push(1))).toMatch(/^series.counts.firewall: has \d+ buckets, series.counts.pass has \d+$/);
    expect(problem((r) => (r.series.bucketSeconds = 0))).toBe('series.bucketSeconds: must be a positive number');
  });
});
