// A case's long `packets:` list is read in parts (case-parts.ts) when it is loaded and again when it
// runs, so its packets are never all held: 40,000 packets run in a 40 MB heap (holding their
// specs, ~860 bytes each, aborted the run there), with the result, message and trace that reading
// the whole document gives.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, tempDir, writeSuite } from './helpers.js';

const COUNT = 40_000;

/** The suite: one case of COUNT packets to the web server's ports 80, 81, 82 in turn, wrong on purpose about the last but one (port 82 is closed). */
function suite(head: string): string {
  const packets = Array.from({ length: COUNT }, (_, i) => `      - {tcp.dstport: ${80 + (i % 3)}, ip.src: 10.0.${(i >> 8) & 255}.${i & 255}}\n`).join('');
  return `${head}config: ${DEMO_CONFIG}\ncases:\n  - name: many\n    packets:\n${packets}    expect: {packet: ${COUNT - 1}, verdict: pass}\n`;
}

/** `edgesim test suite.yaml` in the suite's folder, its timings left out. */
function test(file: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = runCli(['test', path.basename(file)], { cwd: path.dirname(file), env });
  return { ...r, stdout: r.stdout.replace(/ \(\d+\.\d+s\)/g, '') };
}

describe('a long packets list', () => {
  it('runs in a heap smaller than its packets would take, as the whole document reads it', () => {
    const capped = test(writeSuite(suite('')), { NODE_OPTIONS: '--max-old-space-size=40' });
    expect(capped.stderr).toBe('');
    expect(capped.status).toBe(1);
    expect(capped.stdout).toContain(`FAIL  many: packet ${COUNT - 1}: verdict: expected pass, got drop\n`);
    // an anchor anywhere makes the suite read as one document
    const whole = test(writeSuite(suite('description: &whole read as one document\n'), 'suite.yaml', tempDir()));
    expect(whole.status).toBe(1);
    expect(capped.stdout).toBe(whole.stdout);
  }, 180_000);
});
