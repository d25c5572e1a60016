// The bundled sample lists (issue 32): a run whose rules read one says so once, naming --lists for
// real feeds; and no sample holds the demo's servers, so the docs' own "block anonymizers" rule no
// longer drops the servers' replies (it dropped 18.8% of the demo capture).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const NOTE = (name: string): string => `edgesim: warning: a rule reads $${name}: edgesim's bundled SAMPLE of it (documentation addresses, not a real feed); give real feeds with --lists DIR\n`;

function config(expression: string): string {
  const file = path.join(tempDir('edgesim-samples-'), 'anonymizers.json');
  writeFileSync(file, JSON.stringify({ rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: [{ ref: 'block-anonymizers', action: 'block', expression }] }] }));
  return file;
}

describe('bundled sample lists', () => {
  const anonymizers = config('ip.src in $cf.anonymizer');

  it('"block anonymizers" drops none of the demo capture, and the run says once that the list is a sample', () => {
    const r = runCli(['replay', 'examples/demo.pcap', '--config', anonymizers, '--format', 'json'], { sampleNotes: true });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { dropped: number }).dropped).toBe(0);
    expect(r.stderr).toBe(NOTE('svc.anonymizer'));
  });

  it('said once though both sides of a diff read it; not said with --lists', () => {
    const r = runCli(['diff', 'examples/demo.pcap', '--config', anonymizers, '--against', anonymizers], { sampleNotes: true });
    expect(r.stderr).toBe(NOTE('svc.anonymizer'));
    const feeds = tempDir('edgesim-feeds-');
    mkdirSync(feeds, { recursive: true });
    writeFileSync(path.join(feeds, 'svc.anonymizer.txt'), '198.18.0.0/15\n');
    const real = runCli(['replay', 'examples/demo.pcap', '--config', anonymizers, '--lists', feeds], { sampleNotes: true });
    expect(real.stderr).toBe('');
  });

  it('lint and diff --static say it too', () => {
    expect(runCli(['lint', anonymizers], { sampleNotes: true }).stderr).toBe(NOTE('svc.anonymizer'));
    expect(runCli(['diff', '--static', anonymizers, config('ip.src in $svc.vpn')], { sampleNotes: true }).stderr).toBe(NOTE('svc.anonymizer') + NOTE('svc.vpn'));
  });
});
