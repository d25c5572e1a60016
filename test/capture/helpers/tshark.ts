// tshark as an oracle: one row per frame of the requested fields, every occurrence of each field
// (in dissection order), with IP reassembly off so each frame is dissected on its own.
import { spawnSync } from 'node:child_process';

export type TsharkRow = Record<string, string[]>;

export function tsharkFields(file: string, fields: string[], extraArgs: string[] = []): TsharkRow[] {
  const args = ['-r', file, '-n', '-o', 'ip.defragment:FALSE', '-o', 'ipv6.defragment:FALSE', ...extraArgs,
    '-T', 'fields', '-E', 'occurrence=a', '-E', 'aggregator=;', ...fields.flatMap((f) => ['-e', f])];
  const r = spawnSync('tshark', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`tshark failed on ${file}: ${r.stderr}`);
  return r.stdout.split('\n').filter((line) => line !== '').map((line) => {
    const cols = line.split('\t');
    const row: TsharkRow = {};
    fields.forEach((f, i) => { row[f] = cols[i] ? cols[i]!.split(';') : []; });
    return row;
  });
}
