// Rows name a rule by its description when the rule has no ref of its own (issue 35): the vendor's
// GET response writes such a rule's ref as its 32-hex id, and a diff's table, its markdown and the
// static diff's text show the description with the id's first digits; JSON and NDJSON keep the ref.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const ALLOW = { id: '6244a1b2c3d4e5f60718293a4b5c6d7e', ref: '6244a1b2c3d4e5f60718293a4b5c6d7e', version: '1', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 32768..65535 }', description: 'Allow TCP Ephemeral Ports', last_updated: '2026-11-02T09:14:27Z', enabled: true, logging: { enabled: true } };
const BLOCK = { id: '7244a1b2c3d4e5f60718293a4b5c6d7e', ref: '7244a1b2c3d4e5f60718293a4b5c6d7e', version: '1', action: 'block', expression: 'udp.dstport in { 32768..65535 }', description: 'Block UDP Ephemeral Ports', last_updated: '2026-11-02T09:14:27Z', enabled: true };

function entrypoint(rules: object[]): string {
  const file = path.join(tempDir('edgesim-labels-'), 'entrypoint.json');
  writeFileSync(file, JSON.stringify({ result: { id: '2c0fc9fa937b11eaa1b71c4d701ab86e', name: 'default', kind: 'root', version: '3', phase: 'magic_transit', rules }, success: true, errors: [], messages: [] }));
  return file;
}

describe('a rule without a ref of its own', () => {
  const before = entrypoint([ALLOW]);
  const after = entrypoint([BLOCK, ALLOW]);

  it('is shown by its description in the table and the markdown, by its ref in JSON', () => {
    const text = runCli(['diff', 'examples/demo.pcap', '--config', before, '--against', after]);
    expect(text.stdout).toContain('drop (Block UDP Ephemeral Ports (id 7244a1b2…))');
    expect(text.stdout).not.toContain('7244a1b2c3d4e5f60718293a4b5c6d7e');
    const markdown = runCli(['diff', 'examples/demo.pcap', '--config', before, '--against', after, '--format', 'markdown']);
    expect(markdown.stdout).toContain('drop by Block UDP Ephemeral Ports (id 7244a1b2…)');
    const json = JSON.parse(runCli(['diff', 'examples/demo.pcap', '--config', before, '--against', after, '--format', 'json']).stdout);
    expect(json.groups[0].after.rule).toBe('7244a1b2c3d4e5f60718293a4b5c6d7e');
  });

  it('diff --static: the same in its text', () => {
    const r = runCli(['diff', '--static', before, after]);
    expect(r.stdout).toContain('pass (no rule) -> drop by Block UDP Ephemeral Ports (id 7244a1b2…)');
  });
});
