// The script the page runs: it reads the chart data embedded in the page (chart-data.ts) and draws
// it with uPlot. Verdicts over time are stacked steps (drops by stage at the bottom, passes on top;
// the legend shows each part's own rate); each ATP meter is a chart of its sustained and burst rates
// against their thresholds, with mitigation periods shaded behind. Plain ES2017 in a string: it
// runs in the browser, not in Node, and the page must work from a file with no network.
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import { COLORS } from './style.js';

/** each series column's label: passed, dropped by the firewall, by each protection component */
const SERIES_LABELS = { pass: 'passed', firewall: 'dropped by the firewall', ...Object.fromEntries(PROTECTION_COMPONENTS.map((c) => [c.name, c.dropped])) };

export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var COLORS = ${JSON.stringify(COLORS)};
  var LABELS = ${JSON.stringify(SERIES_LABELS)};
  var data = JSON.parse(document.getElementById('chart-data').textContent);
  var charts = [];

  function rate(v) {
    if (v == null) return '\u2013';
    return (v >= 100 ? Math.round(v) : Math.round(v * 10) / 10).toLocaleString('en-US') + ' pps';
  }
  function seconds(u, v) { return v == null ? '\u2013' : (Math.round(v * 1000) / 1000) + ' s'; }
  function widthOf(el) { return Math.max(300, el.clientWidth || 800); }
  function axes(yLabel) {
    return [
      { label: 'seconds since the first packet', stroke: '#5d6475', grid: { stroke: '#eef0f4' }, ticks: { stroke: '#e3e6ec' } },
      { label: yLabel, stroke: '#5d6475', size: 64, grid: { stroke: '#eef0f4' }, ticks: { stroke: '#e3e6ec' },
        values: function (u, vals) { return vals.map(function (v) { return v >= 1000 ? (v / 1000) + 'k' : String(v); }); } }
    ];
  }
  function mount(el, opts, series) {
    opts.width = widthOf(el);
    charts.push({ el: el, chart: new uPlot(opts, series, el) });
  }

  function verdicts() {
    var el = document.getElementById('chart-verdicts');
    var v = data.verdicts;
    if (!el || v.x.length === 0) return;
    // stacked: the series drawn first is the total, each next one the part below it
    var order = v.columns.slice().reverse();
    var stacked = [];
    var running = v.x.map(function () { return 0; });
    order.forEach(function (c) {
      running = running.map(function (r, i) { return r + c.values[i]; });
      stacked.unshift({ name: c.name, raw: c.values, values: running });
    });
    var stepped = uPlot.paths.stepped({ align: 1 });
    var series = [{ label: 'time', value: seconds }];
    stacked.forEach(function (s) {
      series.push({
        label: LABELS[s.name], stroke: COLORS[s.name], fill: COLORS[s.name], width: 1, paths: stepped, points: { show: false },
        value: (function (raw) { return function (u, val, si, i) { return i == null ? '\u2013' : rate(raw[i]); }; })(s.raw)
      });
    });
    mount(el, {
      height: 280, series: series, axes: axes('packets/s'),
      scales: { x: { time: false }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.05 : 1]; } } },
      cursor: { points: { show: false } }, legend: { live: true }
    }, [v.x].concat(stacked.map(function (s) { return s.values; })));
  }

  function atp(c) {
    var el = document.getElementById(c.id);
    if (!el) return;
    var shade = function (u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.fillStyle = COLORS.mitigation;
      c.mitigations.forEach(function (m) {
        var x0 = u.valToPos(m[0], 'x', true);
        var x1 = u.valToPos(m[1] == null ? c.end : m[1], 'x', true);
        ctx.fillRect(x0, u.bbox.top, Math.max(2, x1 - x0), u.bbox.height);
      });
      ctx.restore();
    };
    mount(el, {
      height: 240, axes: axes('packets/s'),
      series: [
        { label: 'time', value: seconds },
        { label: 'sustained rate', points: { show: false }, stroke: COLORS.firewall, width: 2, value: function (u, v) { return rate(v); } },
        { label: 'burst rate', points: { show: false }, stroke: COLORS.burst, width: 1, value: function (u, v) { return rate(v); } },
        { label: 'rate threshold', points: { show: false }, stroke: COLORS.threshold, width: 1.5, dash: [6, 4], value: function (u, v) { return rate(v); } },
        { label: 'burst threshold', points: { show: false }, stroke: '#8c94a8', width: 1.5, dash: [2, 4], value: function (u, v) { return rate(v); } }
      ],
      scales: { x: { time: false, range: function (u, min, max) { return [Math.min(0, min), Math.max(max, c.end)]; } },
                y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.08 : 1]; } } },
      hooks: { drawClear: [shade] }
    }, [c.x, c.rate, c.burst, c.rateThreshold, c.burstThreshold]);
  }

  verdicts();
  data.atp.forEach(atp);
  var pending = 0;
  window.addEventListener('resize', function () {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(function () {
      charts.forEach(function (c) { c.chart.setSize({ width: widthOf(c.el), height: c.chart.height }); });
    });
  });
})();
`;
