// The report page in a real browser: it loads from a file with no console error, no failed request
// and no request at all beyond the file itself, and every chart drew its data (the canvases hold
// pixels of each series' colour, and the mitigation bands are shaded).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import type { ReportData } from '../../src/report/report-data.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { COLORS } from '../../src/report/style.js';
import { replayFile } from '../../src/sim/replay.js';
import { openBrowser, type Browser } from '../helpers/chromium.js';
import { tempDir } from '../helpers/temp-dir.js';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await openBrowser();
  dir = tempDir('edgesim-page-');
});

afterAll(async () => {
  await browser?.close();
});

async function summary(snapshot: Snapshot): Promise<ReportData> {
  const { report, warnings } = await replayFile('examples/demo.pcap', snapshot);
  return { ...report, configuration: 'examples/demo-snapshot.json', warnings };
}

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

interface Loaded {
  problems: string[];
  requests: string[];
  charts: number;
  fallbackTables: number;
  /** per chart: pixels drawn at all, and pixels of each probed colour (rgb, and whether translucent) */
  pixels: Array<{ drawn: number; colours: number[] }>;
}

async function load(data: ReportData, probes: Array<{ rgb: [number, number, number]; translucent: boolean }>): Promise<Loaded> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.html`);
  writeFileSync(file, renderHtmlReport(data));
  const page = await browser.context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const result = await page.evaluate((probes) => {
    const charts = [...document.querySelectorAll('.uplot')];
    const pixels = charts.map((chart) => {
      const canvas = chart.querySelector('canvas') as HTMLCanvasElement;
      const { data } = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      const colours = probes.map(() => 0);
      for (let i = 0; i < data.length; i += 4) {
        const a = data[i + 3];
        if (a === 0) continue;
        drawn++;
        probes.forEach((p, k) => {
          const near = Math.abs(data[i] - p.rgb[0]) < 12 && Math.abs(data[i + 1] - p.rgb[1]) < 12 && Math.abs(data[i + 2] - p.rgb[2]) < 12;
          if (near && (p.translucent ? a > 15 && a < 60 : a > 240)) colours[k]++;
        });
      }
      return { drawn, colours };
    });
    return { charts: charts.length, fallbackTables: document.querySelectorAll('figure details table').length, pixels };
  }, probes);
  await page.close();
  return { problems, requests, ...result };
}

const PASS = { rgb: rgb(COLORS.pass), translucent: false };
const FIREWALL = { rgb: rgb(COLORS.firewall), translucent: false };
const SYN = { rgb: rgb(COLORS.syn_protection), translucent: false };
const BAND = { rgb: [209, 73, 91] as [number, number, number], translucent: true };

describe('the report page in headless Chromium', () => {
  it('draws the demo: verdicts over time by stage, and each ATP meter with its mitigation band, from the file alone', async () => {
    const data = await summary(await loadSnapshotFile('examples/demo-snapshot.json'));
    const meters = Object.values(data.atp?.components ?? {}).flatMap((c) => c.scopes.filter((s) => s.timeline.length > 0));
    expect(meters.length).toBe(2);
    const page = await load(data, [PASS, FIREWALL, SYN, BAND]);
    expect(page.problems).toEqual([]);
    expect(page.requests).toHaveLength(1);
    expect(page.requests[0]).toMatch(/^file:\/\/.*\.html$/);
    expect(page.charts).toBe(1 + meters.length);
    expect(page.fallbackTables).toBe(page.charts);
    const [verdicts, ...atp] = page.pixels;
    const [pass, firewall, syn] = verdicts.colours;
    // stacked areas: thousands of pixels of each stage that dropped, and of passes
    expect(pass).toBeGreaterThan(5000);
    expect(firewall).toBeGreaterThan(200);
    expect(syn).toBeGreaterThan(2000);
    for (const chart of atp) {
      expect(chart.colours[1]).toBeGreaterThan(50); // the sustained-rate line
      expect(chart.colours[3]).toBeGreaterThan(2000); // the shaded mitigation period
    }
  });

  it('draws a firewall-only replay as one chart, with no ATP section', async () => {
    const full = await loadSnapshotFile('examples/demo-snapshot.json');
    const data = await summary({ rulesets: full.rulesets, lists: full.lists });
    expect(data.atp).toBeNull();
    const page = await load(data, [PASS, FIREWALL, SYN]);
    expect(page.problems).toEqual([]);
    expect(page.requests).toHaveLength(1);
    expect(page.charts).toBe(1);
    expect(page.pixels[0].colours[0]).toBeGreaterThan(5000);
    expect(page.pixels[0].colours[1]).toBeGreaterThan(200);
    expect(page.pixels[0].colours[2]).toBe(0);
  });
});
