// `edgesim inspect` end to end, as a user runs it: NDJSON with frame, time and the decoded fields
// (checked against tshark on corpus captures), --limit, notes, warnings, and one-line errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIPv6, parseIPv6 } from '../../src/net/ipv6.js';
import { BIN, runCli } from '../helpers/cli.js';
import { corpusPath } from '../capture/helpers/corpus.js';
import { tsharkFields } from '../helpers/tshark.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'edgesim-inspect-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Line = Record<string, string | number | boolean>;

function inspect(args: string[]): { status: number | null; lines: Line[]; stderr: string } {
  const r = runCli(['inspect', ...args]);
  return { status: r.status, lines: r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line), stderr: r.stderr };
}

const canonical = (ip: string): string => (ip.includes(':') ? formatIPv6(parseIPv6(ip)!) : ip);

describe('edgesim inspect', () => {
  it.each(['forces3.pcap', 'icmpv6.pcap', 'bfd_source_port_49152.pcap', 'ipv6-routing-header.pcap', 'LINKTYPE_RAW_ipv4.pcap'])(
    'prints one object per frame whose addresses, ports and ICMP types are tshark\'s (%s)', (name) => {
      const file = corpusPath(name);
      const { status, lines, stderr } = inspect([file]);
      expect(status).toBe(0);
      expect(stderr).toBe('');
      const t = tsharkFields(file, ['frame.time_epoch', 'ip.src', 'ipv6.src', 'tcp.dstport', 'udp.dstport', 'icmp.type', 'icmpv6.type']);
      expect(lines.map((l) => l.frame)).toEqual(t.map((_, i) => i + 1));
      lines.forEach((l, i) => {
        const row = t[i]!;
        expect(l.time).toBeCloseTo(Number(row['frame.time_epoch']![0]), 5);
        const src = row['ip.src']![0] ?? row['ipv6.src']![0];
        if (src !== undefined) expect(l['ip.src']).toBe(canonical(src));
        if (l['tcp.dstport'] !== undefined) expect(l['tcp.dstport']).toBe(Number(row['tcp.dstport']![0]));
        if (l['udp.dstport'] !== undefined) expect(l['udp.dstport']).toBe(Number(row['udp.dstport']![0]));
        if (l['icmp.type'] !== undefined) expect(l['icmp.type']).toBe(Number((row['icmp.type']![0] ?? row['icmpv6.type']![0])));
      });
      expect(lines.some((l) => 'ip.src' in l)).toBe(true);
    });

  it('stops after --limit packets', () => {
    expect(inspect([corpusPath('forces3.pcap'), '--limit', '3']).lines.map((l) => l.frame)).toEqual([1, 2, 3]);
    expect(inspect([corpusPath('forces3.pcap'), '-n', '0']).lines).toEqual([]);
  });

  it('rejects a --limit that is not a whole number as a usage error', () => {
    const r = runCli(['inspect', corpusPath('forces3.pcap'), '--limit', 'ten']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('expected a whole number of packets');
  });

  it('says why a packet has no fields', () => {
    const { lines } = inspect([corpusPath('HDLC.pcap'), '--limit', '1']);
    expect(lines[0]).toEqual({ frame: 1, time: expect.any(Number), note: 'unsupported link type 104' });
  });

  it('reads gzipped captures', () => {
    const gz = path.join(tmp, 'forces3.pcap.gz');
    writeFileSync(gz, gzipSync(readFileSync(corpusPath('forces3.pcap'))));
    expect(inspect([gz]).lines).toEqual(inspect([corpusPath('forces3.pcap')]).lines);
  });

  it('prints file-level warnings to stderr and still succeeds', () => {
    const cut = path.join(tmp, 'cut.pcap');
    const whole = readFileSync(corpusPath('forces3.pcap'));
    writeFileSync(cut, whole.subarray(0, whole.length - 10));
    const { status, lines, stderr } = inspect([cut]);
    expect(status).toBe(0);
    expect(lines.length).toBe(153);
    expect(stderr).toMatch(/^edgesim: warning: .*cut\.pcap: truncated final record at byte \d+ \(frame 154\)\n$/);
  });

  it.each([
    ['a missing file', () => path.join(tmp, 'missing.pcap'), /^edgesim: .*missing\.pcap: cannot open: no such file\n$/],
    ['a file that is not a capture', () => { const p = path.join(tmp, 'notes.txt'); writeFileSync(p, 'hello'); return p; }, /^edgesim: .*notes\.txt: not a pcap or pcapng file \(it starts with 68 65 6c 6c\)\n$/],
  ])('fails on %s with one line and exit 1', (_name, make, message) => {
    const r = runCli(['inspect', make()]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('ends quietly when the reader of its output goes away', () => {
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" inspect "${corpusPath('forces3.pcap')}" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('0');
    expect(r.stderr).toBe('');
  });
});
