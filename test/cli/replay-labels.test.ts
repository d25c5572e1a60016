// A label sidecar that does not fit its capture (it belongs to another one, or was cut or edited)
// is a warning: the replay goes on and prints no ground-truth score, instead of scoring the wrong
// frames or sizing memory by a frame number.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let capture: string;
let sidecar: string;
const demoLabels = readFileSync('examples/demo.pcap.labels.ndjson', 'utf8');
const frames = demoLabels.trim().split('\n').length;

function replay(): { stdout: string; stderr: string; json: { labels: unknown; atp: { labels: unknown } | null; warnings: string[] } } {
  const table = runCli(['replay', capture, '--config', 'examples/demo-snapshot.json']);
  expect(table.status).toBe(0);
  const json = runCli(['replay', capture, '--config', 'examples/demo-snapshot.json', '--format', 'json']);
  expect(json.status).toBe(0);
  return { stdout: table.stdout, stderr: table.stderr, json: JSON.parse(json.stdout) };
}

beforeAll(() => {
  dir = tempDir('edgesim-labels-fit-');
  capture = path.join(dir, 'demo.pcap');
  sidecar = `${capture}.labels.ndjson`;
  copyFileSync('examples/demo.pcap', capture);
});

describe('labels that do not fit the capture', () => {
  it('fit: the ground-truth table is printed (the control case)', () => {
    writeFileSync(sidecar, demoLabels);
    const r = replay();
    expect(r.stdout).toMatch(/whole path against ground truth/);
    expect(r.json.labels).not.toBeNull();
    expect(r.json.warnings.filter((w) => w.includes('label'))).toEqual([]);
  });

  it('a line naming frame 2147483647 (61 bytes): a warning, no score', () => {
    writeFileSync(sidecar, '{"frame":2147483647,"label":"attack","part":"x","flow":null}\n');
    const r = replay();
    expect(r.stdout).toContain(`${sidecar} labels frame 2,147,483,647, past the capture's last frame (${frames.toLocaleString('en-US')}); the labels were not scored`);
    expect(r.stdout).not.toMatch(/against ground truth/);
    expect(r.json.labels).toBeNull();
    expect(r.json.atp?.labels ?? null).toBeNull();
  });

  it('more label lines than frames: a warning, no score', () => {
    writeFileSync(sidecar, demoLabels + demoLabels);
    const r = replay();
    expect(r.stdout).toContain(`${sidecar} has ${(2 * frames).toLocaleString('en-US')} label lines for ${frames.toLocaleString('en-US')} frames; the labels were not scored`);
    expect(r.stdout).not.toMatch(/against ground truth/);
    expect(r.json.labels).toBeNull();
  });
});
