// A replay's summary as one self-contained HTML page: the charting library and its stylesheet are
// inlined, the chart data travels in a JSON script element, and a Content-Security-Policy forbids
// every request, so the file opens anywhere, offline, and shows the same thing in a year. The policy
// names the page's own scripts and stylesheets by their hashes: nothing else runs or styles the page
// (no event handler, no style attribute, no script element that a value might have smuggled in).
import { chartLibrary } from './assets.js';
import { chartData } from './chart-data.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { inlineSource, scriptJson, sourceHash, text } from './html.js';
import type { ReportData } from './report-data.js';
import { STYLE } from './style.js';
import { dropsSection, labelsSection, notesSection, rulesSection, topSection } from './table-sections.js';
import { atpSection, header, verdictSection } from './traffic-sections.js';

function policy(scripts: string[], styles: string[]): string {
  const hashes = (sources: string[]): string => sources.map(sourceHash).join(' ');
  return `default-src 'none'; script-src ${hashes(scripts)}; style-src ${hashes(styles)}; img-src data:; base-uri 'none'; form-action 'none'`;
}

export function renderHtmlReport(r: ReportData): string {
  const lib = chartLibrary();
  const charts = chartData(r);
  const title = `edgesim report: ${r.capture.file}`;
  const scripts = [inlineSource(lib.script, 'script'), inlineSource(CLIENT_SCRIPT, 'script')];
  const styles = [inlineSource(lib.style, 'style'), STYLE];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy(scripts, styles)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="edgesim">
<title>${text(title)}</title>
${styles.map((style) => `<style>${style}</style>`).join('\n')}
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
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`;
}
