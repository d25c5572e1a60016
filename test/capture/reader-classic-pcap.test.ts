// Cross-check against an independent reader: pcap-parser (classic microsecond pcap only) must see,
// in every such corpus file, the same packets as edgesim: the same count, the same captured bytes,
// the same original lengths and the same timestamps (compared in microseconds, since edgesim carries
// a fraction of a second or more into the seconds and pcap-parser passes it through).
import { createRequire } from 'node:module';
import { openSync, readSync, closeSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles, corpusPath, readAll } from './helpers/corpus.js';

interface Parsed { usec: number; origLen: number; data: string }
interface PcapParserModule {
  parse(path: string): {
    on(event: 'packet', cb: (p: { header: { timestampSeconds: number; timestampMicroseconds: number; originalLength: number }; data: Buffer }) => void): void;
    on(event: 'end', cb: () => void): void;
    on(event: 'error', cb: (err: Error) => void): void;
  };
}
const pcapParser = createRequire(import.meta.url)('pcap-parser') as PcapParserModule;

function parseWithPcapParser(file: string): Promise<Parsed[]> {
  return new Promise((resolve, reject) => {
    const out: Parsed[] = [];
    const p = pcapParser.parse(file);
    p.on('packet', ({ header, data }) => out.push({ usec: header.timestampSeconds * 1e6 + header.timestampMicroseconds, origLen: header.originalLength, data: data.toString('hex') }));
    p.on('end', () => resolve(out));
    p.on('error', reject);
  });
}

function isMicrosecondPcap(file: string): boolean {
  const fd = openSync(file, 'r');
  const magic = Buffer.alloc(4);
  const n = readSync(fd, magic, 0, 4, 0);
  closeSync(fd);
  return n === 4 && ['d4c3b2a1', 'a1b2c3d4'].includes(magic.toString('hex'));
}

describe('edgesim and pcap-parser read classic microsecond pcaps alike', () => {
  const files = corpusFiles().filter((f) => isMicrosecondPcap(corpusPath(f)));
  const mismatches: string[] = [];
  let compared = 0;
  let packets = 0;

  beforeAll(async () => {
    for (const file of files) {
      const path = corpusPath(file);
      const ours = await readAll(path, (r): Parsed => ({
        usec: r.tsSec * 1e6 + r.tsNsec / 1000,
        origLen: r.origLen,
        data: Buffer.from(r.data.buffer, r.data.byteOffset + r.dataOff, r.capLen).toString('hex'),
      }));
      // pcap-parser stops silently at a damaged record; compare only files edgesim read cleanly
      // (timestamps out of order are not damage: every record is read)
      if (ours.info.warnings.some((w) => !w.startsWith('timestamps out of order'))) continue;
      const theirs = await parseWithPcapParser(path);
      compared++;
      packets += theirs.length;
      if (JSON.stringify(theirs) !== JSON.stringify(ours.packets)) mismatches.push(file);
    }
  }, 60_000);

  it('on every file (more than 700, with both byte orders)', () => {
    expect(files.length).toBeGreaterThan(700);
    expect(compared).toBe(files.length);
    expect(packets).toBeGreaterThan(9000);
    expect(mismatches).toEqual([]);
  });
});
