// Whatever a summary file holds, `edgesim report` either renders it or names one problem: a summary
// that passes the check renders without an error. Summaries here are the demo's with one value
// somewhere replaced (by each of a set of awkward values, then by any JSON value) or removed, and
// a summary with far more rows than the demo.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { checkSummary } from '../../src/report/summary-shape.js';
import { replayFile } from '../../src/sim/replay.js';

type Path = Array<string | number>;

let demo: string;

beforeAll(async () => {
  const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
  demo = JSON.stringify({ ...report, configuration: 'examples/demo-snapshot.json', warnings });
});

/** Every path to a value in `value` (arrays: their first item, whose shape the others share). */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.slice(0, 1).map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** `value` with the value at `path` replaced, or removed when `replacement` is undefined (copies only the path). */
function changed(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const [key, ...rest] = path;
  if (rest.length > 0) copy[key] = changed(copy[key], rest, replacement);
  else if (replacement === undefined) delete copy[key];
  else copy[key] = replacement;
  return copy;
}

/** The check's problem, or the page's length; throws only if rendering a checked summary throws. */
function renderOrProblem(summary: unknown): string | number {
  const checked = checkSummary(summary);
  return 'problem' in checked ? checked.problem : renderHtmlReport(checked.data).length;
}

const AWKWARD = [undefined, null, '', true, -1, 1e300, {}, [null]];

describe('a summary that passes the check renders', () => {
  it('with any value replaced by an awkward one, or removed', () => {
    const summary: unknown = JSON.parse(demo);
    for (const path of paths(summary)) {
      for (const value of AWKWARD) {
        expect(() => renderOrProblem(changed(summary, path, value)), `${path.join('.')} = ${JSON.stringify(value)}`).not.toThrow();
      }
    }
  });

  it('with any value replaced by any JSON value', () => {
    const summary: unknown = JSON.parse(demo);
    const all = paths(summary);
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.jsonValue({ maxDepth: 2 }), (which, value) => {
        expect(() => renderOrProblem(changed(summary, all[which], value))).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('with drops by 200,000 rules (more values than Math.max takes as arguments)', () => {
    const r = JSON.parse(demo) as { drops: { byRule: unknown[] } };
    r.drops.byRule = Array.from({ length: 200_000 }, (_, i) => ({ rule: `r${i}`, packets: i }));
    expect(renderOrProblem(r)).toBeGreaterThan(0);
  });
});
