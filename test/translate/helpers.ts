// What the translation tests share: the frames a capture holds (or those a predicate keeps) told
// apart by time and bytes, as tcpdump's output is read back, and by frame number, as tshark prints
// them; and running a tool.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readCapture } from '../../src/capture/reader.js';
import type { PacketRecord } from '../../src/capture/record.js';

function key(rec: PacketRecord): string {
  const bytes = rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen);
  return `${rec.timeText()} ${createHash('sha1').update(bytes).digest('hex')}`;
}

/** The frames of `file` that `keep` keeps: their keys (time and bytes, sorted) and their numbers (in order). */
export async function keysOf(file: string, keep: (rec: PacketRecord) => boolean = () => true): Promise<{ keys: string[]; frames: number[] }> {
  const keys: string[] = [];
  const frames: number[] = [];
  await readCapture(file, (rec) => {
    if (!keep(rec)) return;
    keys.push(key(rec));
    frames.push(rec.frame);
  });
  return { keys: keys.sort(), frames };
}

/** Runs a tool to its end; its standard output, or an error with its standard error. */
export function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}
