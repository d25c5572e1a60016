// pcap-parser as an independent reader of classic µs pcap (in process), for cross-checks.
import { createRequire } from 'node:module';

export interface ParsedPacket {
  tsSec: number;
  tsUsec: number;
  capLen: number;
  origLen: number;
  data: Buffer;
}

export interface ParsedCapture {
  linkType: number;
  snaplen: number;
  packets: ParsedPacket[];
}

interface PcapParserEvents {
  on(event: 'globalHeader', fn: (h: { linkLayerType: number; snapshotLength: number }) => void): PcapParserEvents;
  on(event: 'packet', fn: (p: { header: { timestampSeconds: number; timestampMicroseconds: number; capturedLength: number; originalLength: number }; data: Buffer }) => void): PcapParserEvents;
  on(event: 'end', fn: () => void): PcapParserEvents;
  on(event: 'error', fn: (err: Error) => void): PcapParserEvents;
}

const pcapParser = createRequire(import.meta.url)('pcap-parser') as { parse(path: string): PcapParserEvents };

/** Reads a classic µs pcap with pcap-parser. */
export function parseWithPcapParser(path: string): Promise<ParsedCapture> {
  return new Promise((resolve, reject) => {
    const out: ParsedCapture = { linkType: -1, snaplen: -1, packets: [] };
    pcapParser
      .parse(path)
      .on('globalHeader', (h) => {
        out.linkType = h.linkLayerType;
        out.snaplen = h.snapshotLength;
      })
      .on('packet', (p) => {
        out.packets.push({
          tsSec: p.header.timestampSeconds,
          tsUsec: p.header.timestampMicroseconds,
          capLen: p.header.capturedLength,
          origLen: p.header.originalLength,
          data: Buffer.from(p.data),
        });
      })
      .on('error', reject)
      .on('end', () => resolve(out));
  });
}
