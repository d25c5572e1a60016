// Independent readers the synth tests compare against: pcap-parser (classic µs pcap, in process)
// and the Wireshark tools (tshark, capinfos) run as a user would.
import { spawnSync } from 'node:child_process';
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

export interface ToolResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(tool: string, args: string[]): ToolResult {
  const r = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '').replace(/^Running as user "root".*\n/m, '') };
}

/** tshark's fields, one array of strings per frame, with every checksum check switched on. */
export function tsharkFields(path: string, fields: string[], filter?: string): { rows: string[][]; stderr: string } {
  const args = [
    '-n', '-r', path,
    '-o', 'ip.check_checksum:TRUE', '-o', 'tcp.check_checksum:TRUE', '-o', 'udp.check_checksum:TRUE',
    '-T', 'fields', '-E', 'separator=\t', '-E', 'occurrence=f',
  ];
  if (filter) args.push('-Y', filter);
  for (const f of fields) args.push('-e', f);
  const r = runTool('tshark', args);
  if (r.status !== 0) throw new Error(`tshark failed (${r.status}): ${r.stderr}`);
  const rows = r.stdout.split('\n').filter((l) => l.length > 0).map((l) => l.split('\t'));
  return { rows, stderr: r.stderr };
}
