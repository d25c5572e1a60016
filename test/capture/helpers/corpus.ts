// The tcpdump test-suite captures in ../shared/corpus, and reading them with edgesim's reader.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SHARED } from '../../helpers/cli.js';
import { readCapture, type CaptureInfo } from '../../../src/capture/reader.js';
import type { PacketRecord } from '../../../src/capture/record.js';

export const CORPUS = path.join(SHARED, 'corpus/tcpdump-tests');

export function corpusFiles(): string[] {
  return readdirSync(CORPUS).sort();
}

export function corpusPath(name: string): string {
  return path.join(CORPUS, name);
}

/** Reads a file and maps every packet through `pick` (the record is reused, so pick must copy). */
export async function readAll<T>(file: string, pick: (rec: PacketRecord) => T): Promise<{ info: CaptureInfo; packets: T[] }> {
  const packets: T[] = [];
  const info = await readCapture(file, (rec) => packets.push(pick(rec)));
  return { info, packets };
}

/** seconds.nanoseconds as text, the way tshark prints frame.time_epoch */
export function epochText(rec: PacketRecord): string {
  return `${rec.tsSec}.${String(rec.tsNsec).padStart(9, '0')}`;
}
