// The Wireshark tools as oracles, run as a user would: tshark's fields per frame (IP reassembly off,
// so each frame is dissected on its own), and any tool's output (capinfos, tcpdump).
import { spawnSync } from 'node:child_process';

export interface ToolResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(tool: string, args: string[]): ToolResult {
  const r = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '').replace(/^Running as user "root".*\n/m, '') };
}

export interface TsharkOptions {
  /** a display filter (-Y) */
  filter?: string;
  /** switch on tshark's IP, TCP and UDP checksum checks */
  checksums?: boolean;
  extraArgs?: string[];
}

/** Every occurrence of each field, per frame (in dissection order). */
export type TsharkRow = Record<string, string[]>;

function tshark(file: string, fields: string[], opts: TsharkOptions): ToolResult {
  const args = ['-r', file, '-n', '-o', 'ip.defragment:FALSE', '-o', 'ipv6.defragment:FALSE', ...(opts.extraArgs ?? [])];
  if (opts.checksums) args.push('-o', 'ip.check_checksum:TRUE', '-o', 'tcp.check_checksum:TRUE', '-o', 'udp.check_checksum:TRUE');
  if (opts.filter) args.push('-Y', opts.filter);
  args.push('-T', 'fields', '-E', 'separator=\t', '-E', 'occurrence=a', '-E', 'aggregator=;', ...fields.flatMap((f) => ['-e', f]));
  const r = runTool('tshark', args);
  if (r.status !== 0) throw new Error(`tshark failed on ${file} (${r.status}): ${r.stderr}`);
  return r;
}

/** tshark's fields, one row per frame with every occurrence of each field. */
export function tsharkFields(file: string, fields: string[], opts: TsharkOptions = {}): TsharkRow[] {
  return tshark(file, fields, opts).stdout.split('\n').filter((line) => line !== '').map((line) => {
    const cols = line.split('\t');
    const row: TsharkRow = {};
    fields.forEach((f, i) => {
      row[f] = cols[i] ? cols[i]!.split(';') : [];
    });
    return row;
  });
}

/** tshark's fields as columns: per frame, the first occurrence of each field ('' when absent); and what tshark said on stderr. */
export function tsharkColumns(file: string, fields: string[], opts: TsharkOptions = {}): { rows: string[][]; stderr: string } {
  const r = tshark(file, fields, opts);
  const rows = r.stdout.split('\n').filter((l) => l.length > 0).map((l) => l.split('\t').map((c) => c.split(';')[0] ?? ''));
  return { rows, stderr: r.stderr };
}
