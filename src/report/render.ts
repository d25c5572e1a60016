// A replay's summary as one self-contained HTML page: the charting library and its stylesheet are
// inlined, the chart data travels in a JSON script element, and a Content-Security-Policy forbids
// every request, so the file opens anywhere, offline, and shows the same thing in a year.
import { chartLibrary } from './assets.js';
import { chartData } from './chart-data.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { inlineSource, scriptJson, text } from './html.js';
import type { ReportData } from './report-data.js';
import { STYLE } from './style.js';
import { dropsSection, labelsSection, notesSection, rulesSection, topSection } from './table-sections.js';
import { atpSection, header, verdictSection } from './traffic-sections.js';

const POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export function renderHtmlReport(r: ReportData): string {
  const lib = chartLibrary();
  const charts = chartData(r);
  const title = `edgesim report: ${r.capture.file}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="edgesim">
<title>${text(title)}</title>
<style>${inlineSource(lib.style, 'style')}</style>
<style>${STYLE}</style>
</head>
<body>
${header(r)}
<main>
${verdictSection(r, charts)}
${atpSection(r, charts)}
${dropsSection(r)}
${topSection(r)}
${rulesSection(r)}
${labelsSection(r)}
${notesSection(r)}
</main>
<footer>Made by edgesim from a replay of ${text(r.capture.file)}. Charts drawn with uPlot.</footer>
<script type="application/json" id="chart-data">${scriptJson(charts)}</script>
<script>${inlineSource(lib.script, 'script')}</script>
<script>${inlineSource(CLIENT_SCRIPT, 'script')}</script>
</body>
</html>
`;
}
