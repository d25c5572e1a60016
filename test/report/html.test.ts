import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import { inlineSource, scriptJson, sourceHash, text } from '../../src/report/html.js';
import type { ReportData } from '../../src/report/report-data.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { replayFile } from '../../src/sim/replay.js';

const HOSTILE = '</script><script>alert(1)</script><!-- <b onmouseover="x">&amp;\u2028';

let demo: string;

beforeAll(async () => {
  const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
  demo = JSON.stringify({ ...report, warnings });
});

/** the demo's summary with hostile text in every string a user controls */
function hostileSummary(): ReportData {
  const r = JSON.parse(demo) as ReportData;
  r.capture.file = `evil${HOSTILE}.pcap`;
  r.configuration = `cfg${HOSTILE}.json`;
  r.warnings = [`w${HOSTILE}`];
  (r.droppedByStage as Record<string, number>)[`stage"><img onerror=alert(1)>${HOSTILE}`] = 1;
  r.rules[0] = { ...r.rules[0], ref: `ref${HOSTILE}`, description: `d${HOSTILE}`, expression: `ip.src == 1.2.3.4 ${HOSTILE}` };
  r.drops.byRule[0].rule = `ref${HOSTILE}`;
  r.notes = [{ note: `n${HOSTILE}`, packets: 1, firstFrame: 1 }];
  r.lint = [{ ruleset: `rs${HOSTILE}`, rule: `ref${HOSTILE}`, kind: `k${HOSTILE}`, message: `m${HOSTILE}` }];
  if (r.atp !== null) Object.assign(r.atp.components.syn_protection.scopes[0], { scope: 'region', name: `scope${HOSTILE}` });
  return r;
}

describe('the page escapes what it did not write', () => {
  it('text() leaves no markup-significant character', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(text(s)).not.toMatch(/[<>"']|&(?!amp;|lt;|gt;|quot;|#39;)/);
      }),
    );
    expect(text('a<b & "c"')).toBe('a&lt;b &amp; &quot;c&quot;');
  });

  it('scriptJson() round-trips any JSON value and can never close its script element', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, s) => {
        const doc = { value, s: `${s}</script>${s}<!--` };
        const out = scriptJson(doc);
        expect(out.toLowerCase()).not.toContain('</script');
        expect(out).not.toContain('<!--');
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(doc)));
      }),
    );
  });

  it('inlineSource() breaks up a closing tag inside inlined code', () => {
    expect(inlineSource('var s = "</SCRIPT>";', 'script')).toBe('var s = "<\\/SCRIPT>";');
    expect(inlineSource('a::after { content: "</style>" }', 'style')).toBe('a::after { content: "<\\/style>" }');
  });

  it('a summary full of markup renders as text: the page keeps exactly its own three scripts', () => {
    const html = renderHtmlReport(hostileSummary());
    expect(html.match(/<script/gi)?.length).toBe(3);
    expect(html.match(/<\/script>/gi)?.length).toBe(3);
    expect(html).not.toContain('<b onmouseover');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!-- <b');
    expect(html).toContain('evil&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // the chart data (where the ATP scope's name travels) parses back to the hostile text
    const data = /<script type="application\/json" id="chart-data">([^]*?)<\/script>/.exec(html);
    expect(JSON.parse(data?.[1] ?? 'null').atp[0].title).toContain(`scope${HOSTILE}`);
  });

  it('the page loads nothing from anywhere: no src or href attribute, and a policy that forbids requests', () => {
    const html = renderHtmlReport(hostileSummary());
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
  });

  it("the policy lets run and style exactly the page's own scripts and stylesheets, by their hashes", () => {
    const html = renderHtmlReport(hostileSummary());
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    const directive = (name: string): string[] => new RegExp(`${name} ([^;]*)`).exec(policy)?.[1].split(' ') ?? [];
    const bodies = (tag: string): string[] => [...html.matchAll(new RegExp(`<${tag}>([^]*?)</${tag}>`, 'g'))].map((m) => m[1]);
    expect(policy).not.toContain('unsafe');
    expect(directive('script-src')).toEqual(bodies('script').map(sourceHash));
    expect(directive('style-src')).toEqual(bodies('style').map(sourceHash));
    expect(directive('script-src')).toHaveLength(2);
    expect(directive('style-src')).toHaveLength(2);
    expect(html).not.toMatch(/\sstyle=/i);
  });
});
