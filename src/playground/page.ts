// The playground's page: one HTML document with its script and style inline, allowed by hash in its
// Content-Security-Policy (nothing else runs: no other script, no event-handler attribute, no style
// attribute, no request but to this server), and no asset from elsewhere, so it works offline. The
// script writes everything the server answers as text (textContent), never as markup.
import { inlineSource, sourceHash } from '../report/html.js';

const STYLE = String.raw`
:root { --fg: #1d2330; --muted: #5d6475; --line: #d9dde5; --bg: #f7f8fa; --err: #c0392b; --warn: #b9770e; --info: #2e6fb7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1100px; margin: 0 auto; padding: 12px 20px; }
h1 { font-size: 20px; margin: 8px 0; }
h2 { font-size: 15px; margin: 18px 0 6px; }
label { display: block; color: var(--muted); margin: 6px 0 2px; }
input, textarea { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
input { padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px; }
.row { display: flex; gap: 16px; flex-wrap: wrap; }
.editor { position: relative; background: #fff; border: 1px solid var(--line); border-radius: 4px; }
.editor pre, .editor textarea { margin: 0; padding: 8px; min-height: 64px; width: 100%; white-space: pre-wrap; word-wrap: break-word; overflow-wrap: anywhere; font: 14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; letter-spacing: 0; border: 0; }
.editor pre { pointer-events: none; color: var(--fg); }
.editor textarea { position: absolute; inset: 0; height: 100%; resize: none; background: transparent; color: transparent; caret-color: var(--fg); outline: none; }
.t-property { color: #6f42c1; } .t-function { color: #b35c00; } .t-variable { color: #1a7f37; } .t-operator { color: #555; }
.t-keyword { color: #0550ae; font-weight: 600; } .t-string { color: #0a3069; } .t-number { color: #953800; }
.s-error { text-decoration: underline wavy var(--err); } .s-warning { text-decoration: underline wavy var(--warn); }
ul.problems { list-style: none; padding: 0; margin: 6px 0; }
ul.problems li { white-space: pre-wrap; font: 12.5px/1.4 ui-monospace, monospace; padding: 4px 6px; border-left: 3px solid var(--line); margin: 3px 0; background: #fff; }
li.error { border-color: var(--err) !important; } li.warning { border-color: var(--warn) !important; } li.information, li.hint { border-color: var(--info) !important; }
ul.completion { list-style: none; margin: 2px 0 0; padding: 0; border: 1px solid var(--line); background: #fff; max-height: 220px; overflow: auto; width: 520px; }
ul.completion li { padding: 2px 8px; cursor: pointer; font: 13px ui-monospace, monospace; display: flex; justify-content: space-between; gap: 16px; }
ul.completion li.selected { background: #dbe7fb; }
ul.completion li span.detail { color: var(--muted); }
button { font: inherit; padding: 5px 14px; border: 1px solid #2e6fb7; background: #2e6fb7; color: #fff; border-radius: 4px; cursor: pointer; }
table { border-collapse: collapse; background: #fff; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; font-size: 13px; vertical-align: top; }
td.mono, pre.detail { font: 12px ui-monospace, monospace; }
pre.detail { margin: 0; white-space: pre-wrap; }
.verdict { font-size: 16px; font-weight: 600; }
.hidden { display: none; }
.muted { color: var(--muted); }
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var input = $('expression'), shown = $('highlight'), problems = $('problems'), list = $('completion');
  var items = [], selected = 0, timer = null, seq = 0, asked = 0;

  function account() { return { account: $('account').value.trim(), token: $('token').value.trim() }; }
  function post(path, body) {
    return fetch('/playground/' + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); });
  }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = String(text); return e; }

  // the text, split at every token and problem boundary, each piece with the classes that cover it
  function paint(text, tokens, marks) {
    var cuts = [0, text.length];
    tokens.concat(marks).forEach(function (x) { cuts.push(x.start, x.end); });
    cuts = cuts.filter(function (v, i, a) { return v >= 0 && v <= text.length && a.indexOf(v) === i; }).sort(function (a, b) { return a - b; });
    shown.textContent = '';
    for (var i = 0; i + 1 < cuts.length; i++) {
      var a = cuts[i], b = cuts[i + 1], cls = [];
      tokens.forEach(function (t) { if (t.start <= a && b <= t.end) cls.push('t-' + t.type); });
      marks.forEach(function (m) { if (m.start <= a && b <= m.end && (m.severity === 'error' || m.severity === 'warning')) cls.push('s-' + m.severity); });
      shown.appendChild(el('span', cls.join(' '), text.slice(a, b)));
    }
    shown.appendChild(document.createTextNode('\n'));
  }

  function check() {
    var mine = ++seq, text = input.value, who = account();
    post('check', { expression: text, account: who.account, token: who.token }).then(function (r) {
      if (mine !== seq) return;
      if (r.error) { problems.textContent = ''; problems.appendChild(el('li', 'error', r.error)); return; }
      paint(text, r.tokens, r.problems);
      problems.textContent = '';
      r.problems.forEach(function (p) { var li = el('li', p.severity, p.message); li.dataset.code = p.code; problems.appendChild(li); });
      $('status').textContent = r.problems.some(function (p) { return p.severity === 'error'; }) ? 'invalid' : 'valid';
    });
  }

  function hide() { list.classList.add('hidden'); items = []; }
  function show(found) {
    items = found; selected = 0; list.textContent = '';
    if (items.length === 0) { hide(); return; }
    items.forEach(function (it, i) {
      var li = el('li', i === 0 ? 'selected' : '');
      li.appendChild(el('span', 'label', it.label));
      li.appendChild(el('span', 'detail', it.detail));
      li.addEventListener('mousedown', function (e) { e.preventDefault(); apply(i); });
      list.appendChild(li);
    });
    list.classList.remove('hidden');
  }
  function complete() {
    // only the answer to the last question is shown: typing asks again before earlier answers come
    var mine = ++asked, text = input.value, who = account();
    post('complete', { expression: text, offset: input.selectionStart, account: who.account, token: who.token }).then(function (r) {
      if (mine === asked && text === input.value && !r.error) show(r.items);
    });
  }
  function apply(i) {
    var it = items[i]; if (!it) return;
    input.value = input.value.slice(0, it.start) + it.text + input.value.slice(it.end);
    input.selectionStart = input.selectionEnd = it.start + it.text.length;
    hide(); input.focus(); changed();
  }
  function changed() { clearTimeout(timer); timer = setTimeout(check, 120); paint(input.value, [], []); }

  input.addEventListener('input', function () { changed(); complete(); });
  input.addEventListener('keydown', function (e) {
    if (e.key === ' ' && e.ctrlKey) { e.preventDefault(); complete(); return; }
    if (items.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list.children[selected].className = '';
      selected = (selected + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      list.children[selected].className = 'selected';
      list.children[selected].scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' || e.key === 'Tab') { e.preventDefault(); apply(selected); }
    else if (e.key === 'Escape') hide();
  });
  input.addEventListener('blur', hide);
  input.addEventListener('scroll', function () { shown.scrollTop = input.scrollTop; });

  function cell(row, text, cls) { var td = el('td', cls || '', text); row.appendChild(td); return td; }
  function detail(value) { return value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2); }
  function renderTrace(r) {
    var out = $('trace'); out.textContent = '';
    if (r.error) { out.appendChild(el('p', 'error', r.error)); return; }
    var t = r.trace;
    var head = el('p', 'verdict', t.verdict + (t.stage ? ' by ' + t.stage : '') + (t.rule ? ' (' + t.rule + ')' : '') + (t.reason ? ': ' + t.reason : ''));
    head.id = 'verdict'; out.appendChild(head);
    if (r.expression.matches !== null) { var m = el('p', '', 'your expression ' + (r.expression.matches ? 'matches' : 'does not match') + ' this packet'); m.id = 'matches'; out.appendChild(m); }
    var stages = el('table'); stages.id = 'stages';
    var h = el('tr'); ['stage', 'reached', 'decided', 'action', 'detail'].forEach(function (x) { h.appendChild(el('th', '', x)); }); stages.appendChild(h);
    t.steps.forEach(function (s) {
      var row = el('tr'); row.dataset.stage = s.step_name;
      cell(row, s.step_name); cell(row, s.reached ? 'yes' : 'no'); cell(row, s.decided ? 'yes' : 'no'); cell(row, s.action || '\u2013');
      var d = cell(row, ''); d.appendChild(el('pre', 'detail', detail(s.detail)));
      stages.appendChild(row);
    });
    out.appendChild(stages);
    var fw = t.steps.filter(function (s) { return s.step_name === 'firewall'; })[0];
    if (fw && fw.trace) {
      out.appendChild(el('h2', '', 'Firewall rules, in order'));
      var rules = el('table'); rules.id = 'rules';
      var rh = el('tr'); ['rule', 'action', 'tried', 'matched', 'decided', 'expression'].forEach(function (x) { rh.appendChild(el('th', '', x)); }); rules.appendChild(rh);
      fw.trace.forEach(function (s) {
        var row = el('tr'); row.dataset.rule = s.step_name;
        cell(row, s.step_name); cell(row, s.action); cell(row, s.tried ? 'yes' : 'no'); cell(row, s.matched == null ? '\u2013' : s.matched ? 'yes' : 'no'); cell(row, s.decided ? 'yes' : 'no'); cell(row, s.expression, 'mono');
        rules.appendChild(row);
      });
      out.appendChild(rules);
    }
    out.appendChild(el('h2', '', 'The packet\u2019s fields'));
    out.appendChild(el('pre', 'detail', JSON.stringify(t.fields, null, 2)));
  }
  $('trace-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var who = account();
    post('trace', { account: who.account, token: who.token, packet: $('packet').value, expression: input.value }).then(renderTrace);
  });
  paint(input.value, [], []);
  if (input.value) check();
})();
`;

const BODY = `<header>
<h1>edgesim playground</h1>
<p class="muted">Write a Rules-language expression: the engine's messages, lint's findings and completion as in the editor (Ctrl-Space completes). Then trace a packet through the configuration an account holds on this server, stage by stage.</p>
</header>
<main>
<div class="row">
<div><label for="account">account</label><input id="account" value="demo" autocomplete="off"></div>
<div><label for="token">API token (any in open mode)</label><input id="token" type="password" autocomplete="off"></div>
</div>
<h2>Expression <span id="status" class="muted"></span></h2>
<div class="editor"><pre id="highlight" aria-hidden="true"></pre><textarea id="expression" spellcheck="false" autocomplete="off" aria-label="expression">tcp.dstport in {22 2222} and not ip.src in {10.0.0.0/8}</textarea></div>
<ul id="completion" class="completion hidden" role="listbox"></ul>
<ul id="problems" class="problems"></ul>
<form id="trace-form">
<h2>Packet</h2>
<label for="packet">field=value lines, or a line of <code>edgesim inspect</code></label>
<textarea id="packet" rows="4" cols="90" spellcheck="false">ip.src=198.51.100.7
ip.dst=203.0.113.5
tcp.dstport=22</textarea>
<p><button type="submit" id="trace-button">Trace</button></p>
</form>
<section id="trace"></section>
</main>`;

let built: { html: string; policy: string } | undefined;

/** The page and the Content-Security-Policy that goes with it (built once). */
export function playgroundPage(): { html: string; policy: string } {
  if (built === undefined) {
    const script = inlineSource(SCRIPT, 'script');
    const style = inlineSource(STYLE, 'style');
    const policy = `default-src 'none'; script-src ${sourceHash(script)}; style-src ${sourceHash(style)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
    built = {
      policy,
      html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edgesim playground</title>
<style>${style}</style>
</head>
<body>
${BODY}
<script>${script}</script>
</body>
</html>
`,
    };
  }
  return built;
}
