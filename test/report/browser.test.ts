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
  /** messages of every alert, confirm or prompt the page opened */
  dialogs: string[];
  /** elements the page did not write itself (tags it never uses), and attributes that are event handlers */
  foreign: string[];
  scripts: number;
}

type Probe = { rgb: [number, number, number]; translucent: boolean };

async function load(data: ReportData, probes: Probe[], edit: (html: string) => string = (html) => html): Promise<Loaded> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.html`);
  writeFileSync(file, edit(renderHtmlReport(data)));
  const page = await browser.context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
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
    const foreign = [...document.querySelectorAll('*')].flatMap((el) => [
      ...(['IMG', 'IFRAME', 'OBJECT', 'EMBED', 'FORM', 'BASE', 'LINK', 'U'].includes(el.tagName) ? [el.tagName] : []),
      ...[...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName}[${a.name}]`),
    ]);
    return {
      charts: charts.length,
      fallbackTables: document.querySelectorAll('figure details table').length,
      pixels,
      foreign,
      scripts: document.scripts.length,
    };
  }, probes);
  // a handler that would fire on focus or hover gets its chance
  await page.keyboard.press('Tab');
  await page.mouse.move(300, 200);
  await page.mouse.move(600, 400);
  await page.close();
  return { problems, requests, dialogs, ...result };
}

const ATTACK = '\u2028</script><script>alert("script")</script><!--';
const BREAK_OUT = '"><img src=x onerror=alert("img")><u class="';
const HANDLER = '" autofocus tabindex=0 onfocus="alert(\'focus\')" onmouseover="alert(\'hover\')" x="';

/** The demo's summary with markup in every key and string that reaches the page. */
function hostile(data: ReportData): ReportData {
  const r = structuredClone(data);
  (r.droppedByStage as Record<string, number>)[BREAK_OUT] = 5;
  (r.droppedByStage as Record<string, number>)[HANDLER] = 6;
  r.monitorFlagged[`${BREAK_OUT}:${HANDLER}`] = 7;
  r.capture.file = `evil${BREAK_OUT}${ATTACK}.pcap`;
  r.capture.format = HANDLER;
  r.capture.warnings = [BREAK_OUT];
  r.configuration = `cfg${HANDLER}`;
  r.warnings = [ATTACK];
  r.rules[0] = { ...r.rules[0], ref: BREAK_OUT, action: HANDLER, description: ATTACK, expression: `ip.src == 1.2.3.4 ${BREAK_OUT}` };
  r.neverHit.push(BREAK_OUT);
  r.drops.byRule[0].rule = HANDLER;
  (r.drops.byReason as Array<{ stage: string; reason: string; packets: number }>).push(
    { stage: BREAK_OUT, reason: ATTACK, packets: 3 },
    { stage: 'constructor', reason: HANDLER, packets: 2 },
  );
  r.drops.topSources.entries[0].address = BREAK_OUT;
  r.notes = [{ note: ATTACK, packets: 1, firstFrame: 1 }];
  r.lint = [{ ruleset: HANDLER, rule: BREAK_OUT, kind: HANDLER, message: `${HANDLER}${ATTACK}` }];
  const scope = r.atp?.components.syn_protection.scopes.find((s) => s.timeline.length > 0);
  if (scope !== undefined) Object.assign(scope, { scope: 'region', name: `${ATTACK}${BREAK_OUT}`, baselineSource: HANDLER, warning: BREAK_OUT });
  return r;
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

  it('renders hostile summaries as text: no dialog, no element or handler it did not write, and the charts still draw', async () => {
    const data = hostile(await summary(await loadSnapshotFile('examples/demo-snapshot.json')));
    const page = await load(data, [PASS, FIREWALL, SYN, BAND]);
    expect(page.dialogs).toEqual([]);
    expect(page.foreign).toEqual([]);
    expect(page.scripts).toBe(3);
    expect(page.problems).toEqual([]);
    expect(page.requests).toHaveLength(1);
    expect(page.charts).toBe(3);
    expect(page.pixels[0].colours[0]).toBeGreaterThan(5000);
    expect(page.pixels[0].colours[2]).toBeGreaterThan(2000);
    expect(page.pixels[1].colours[3]).toBeGreaterThan(2000);
  });

  it('runs no handler or script that got into the page some other way: the policy allows only its own scripts', async () => {
    const data = await summary(await loadSnapshotFile('examples/demo-snapshot.json'));
    const injected = '<img src=x onerror=alert("img")><div tabindex=0 autofocus onfocus=alert("focus")></div><script>alert("inline")</script>';
    const page = await load(data, [PASS], (html) => html.replace('<main>', `<main>${injected}`));
    expect(page.dialogs).toEqual([]);
    // the charts are drawn by the page's own scripts all the same
    expect(page.charts).toBe(3);
    expect(page.pixels[0].colours[0]).toBeGreaterThan(5000);
  });
});
