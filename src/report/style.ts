// The page's look: system fonts, one column of cards on a light background, numbers in tabular
// figures, one colour per verdict (the same in charts, bars and tiles), and print-friendly.

import { PROTECTION_COMPONENTS, type ComponentName } from '../protection-components.js';

/** One colour per verdict column; the client script and the bars read the same values. */
export const COLORS = {
  pass: '#5b9bd5',
  firewall: '#d1495b',
  /** each protection component's, from its spec */
  ...(Object.fromEntries(PROTECTION_COMPONENTS.map((c) => [c.name, c.color])) as Record<ComponentName, string>),
  threshold: '#30343f',
  /** an ATP chart's burst rate */
  burst: '#edae49',
  /** attack traffic stopped: the good kind of drop */
  stopped: '#3f8f5f',
  mitigation: 'rgba(209, 73, 91, 0.13)',
};

export const STYLE = `
:root {
  --pass: ${COLORS.pass}; --firewall: ${COLORS.firewall};
  --ink: #1d2230; --muted: #5d6475; --line: #e3e6ec; --card: #fff; --bg: #f4f5f8; --accent: #2f5d9e;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: #1d2230; color: #f4f5f8; padding: 22px 0 26px; }
header .wrap, main { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
h1 { font-size: 22px; margin: 0 0 6px; font-weight: 650; letter-spacing: -0.01em; }
h1 small { font-weight: 400; color: #aab1c2; font-size: 15px; margin-left: 8px; }
header dl { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; color: #c9cedb; font-size: 13px; }
header dt { display: inline; color: #8c94a8; }
header dd { display: inline; margin: 0 0 0 5px; }
header code { color: #f4f5f8; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin-top: 18px; }
.tile { background: #2a3041; border-radius: 8px; padding: 10px 14px; border-top: 3px solid #4a5168; }
.tile b { display: block; font-size: 21px; font-weight: 650; font-variant-numeric: tabular-nums; }
.tile span { color: #aab1c2; font-size: 12px; }
.tile.pass { border-top-color: var(--pass); } .tile.firewall { border-top-color: var(--firewall); }
${PROTECTION_COMPONENTS.map((c) => `.tile.${c.name} { border-top-color: ${c.color}; }`).join(' ')}
.tile.drop { border-top-color: #e07a5f; }
.warnings { margin: 14px 0 0; padding: 8px 12px; background: #3b3320; color: #f3d9a4; border-radius: 6px; list-style: none; font-size: 13px; }
main { padding-top: 22px; padding-bottom: 40px; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px 16px; margin-bottom: 18px; }
h2 { font-size: 16px; margin: 0 0 4px; font-weight: 650; }
h3 { font-size: 14px; margin: 14px 0 4px; font-weight: 650; }
p.note { color: var(--muted); margin: 0 0 12px; font-size: 13px; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 8px 28px; }
figure { margin: 0; }
figcaption { margin-bottom: 6px; }
.chart { min-height: 260px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
caption { text-align: left; font-weight: 650; padding: 6px 0; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { color: var(--muted); font-weight: 600; font-size: 12px; border-bottom: 1px solid #cfd4de; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody th { font-weight: 500; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-word; }
td.bar { width: 30%; min-width: 150px; white-space: nowrap; }
th code { white-space: nowrap; }
.grid2 > div { min-width: 0; overflow-x: auto; }
table.top td.bar { width: 24%; min-width: 96px; }
table.top th code { white-space: normal; overflow-wrap: anywhere; }
table.rules tbody th { min-width: 170px; }
table.rules .badge { margin-top: 3px; }
.bar svg { vertical-align: middle; min-width: 1px; }
.bar em { font-style: normal; color: var(--muted); margin-left: 6px; font-size: 12px; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 9px; background: #eef0f4; color: var(--muted); margin: 0 4px 2px 0; white-space: nowrap; }
.badge.never { background: #fff1d6; color: #8a5a00; }
.badge.lint { background: #fde7ea; color: #9b2335; }
.badge.block { background: #fde7ea; color: #9b2335; } .badge.skip { background: #e5f0fb; color: #23558f; }
tr.disabled td, tr.disabled th { color: #9aa0ad; }
.desc { color: var(--muted); display: block; }
details { margin-top: 8px; }
details summary { cursor: pointer; color: var(--accent); font-size: 12px; }
details table { margin-top: 6px; }
.empty { color: var(--muted); font-style: italic; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: baseline; }
.swatch.mitigation { background: rgba(209, 73, 91, 0.35); }
.u-legend { font-size: 12px; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 0 0 28px; }
@media print { body { background: #fff; } section.card { break-inside: avoid; border-color: #ccc; } details { display: none; } }
`;
