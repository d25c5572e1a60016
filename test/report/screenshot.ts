// Makes the README's picture of a report (docs/report.png): the demo replayed, rendered, opened in
// headless Chromium, and the top of the page (header, verdicts over time, SYN-flood protection)
// captured. Run: npx tsx test/report/screenshot.ts [docs/report.png]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSnapshotFile } from '../../src/config/load.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { replayFile } from '../../src/sim/replay.js';
import { openBrowser } from '../helpers/chromium.js';

const out = process.argv[2] ?? 'docs/report.png';
const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
// not a vitest file (run with tsx), so the folder is removed here, after the browser is closed
const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-shot-'));
try {
  const file = path.join(dir, 'demo.html');
  writeFileSync(file, renderHtmlReport({ ...report, configuration: 'examples/demo-snapshot.json', warnings }));
  const browser = await openBrowser({ width: 1040, height: 800 });
  try {
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const bottom = await page.evaluate(() => {
      const first = document.querySelector('#h-atp')?.closest('section')?.querySelector('figure');
      return Math.ceil((first ?? document.body).getBoundingClientRect().bottom + window.scrollY);
    });
    await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1040, height: bottom + 16 } });
  } finally {
    await browser.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${out}\n`);
