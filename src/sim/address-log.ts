// The addresses of a part's dropped packets, in order (drop-breakdown.ts: top addresses depend on the
// order drops come in, so a part counted on another thread keeps them for the thread that counts the
// parts in capture order). Memory stays bounded however many packets a part drops: the log is kept
// in chunks in memory up to a budget, and the rest is written to a file, read back in order when the
// log is counted. The file is made by the replay's thread and removed from its folder at once
// (openSpillFile), so only its descriptor names it: nothing is left on disk however the process ends.
//
// A drop is a tag word and its source and destination: 4 then two words (IPv4), or 6 then eight
// words (IPv6, four words an address). A drop never straddles two chunks.
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CHUNK_WORDS = 1 << 18; // 1 MB
const MOST_WORDS_A_DROP = 9;
const V4 = 4;
const V6 = 6;

/** Where a log may spill to, and how much of it stays in memory. */
export interface AddressLogOptions {
  /** the descriptor of an empty file the log may write to (openSpillFile); -1: it stays in memory whatever its size */
  fd: number;
  /** bytes kept in memory before the rest goes to the file */
  memoryBytes: number;
  /** words a chunk holds (default 1 MB of them; tests take small ones) */
  chunkWords?: number;
}

/** A finished log as plain data: its chunks in memory, then the bytes written to its file (opts.fd). */
export interface AddressLogParts {
  chunks: Array<Int32Array<ArrayBuffer>>;
  fd: number;
  fileBytes: number;
}

/**
 * An empty file for a log to spill to, open for reading and writing, already removed from the
 * system's temporary folder; the caller closes it. Throws where no file can be made there.
 */
export function openSpillFile(): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-drop-addresses-'));
  const file = path.join(dir, 'log');
  try {
    const fd = openSync(file, 'w+');
    unlinkSync(file);
    return fd;
  } finally {
    rmdirSync(dir);
  }
}

/** Counts the drops of a log in order: IPv4 addresses as words 0, 0, 0xffff, address. */
export type AddressCounter = (sa: number, sb: number, sc: number, sd: number, da: number, db: number, dc: number, dd: number) => void;

export class AddressLog {
  private readonly chunkWords: number;
  private chunk: Int32Array<ArrayBuffer>;
  private used = 0;
  private readonly kept: Array<Int32Array<ArrayBuffer>> = [];
  private keptWords = 0;
  /** bytes written to the file (opts.fd) */
  private fileBytes = 0;

  constructor(private readonly opts: AddressLogOptions) {
    this.chunkWords = Math.max(opts.chunkWords ?? CHUNK_WORDS, MOST_WORDS_A_DROP);
    this.chunk = new Int32Array(this.chunkWords);
  }

  addV4(src: number, dst: number): void {
    if (this.used + 3 > this.chunkWords) this.next();
    const c = this.chunk;
    c[this.used] = V4;
    c[this.used + 1] = src;
    c[this.used + 2] = dst;
    this.used += 3;
  }

  addV6(src: Uint32Array, dst: Uint32Array): void {
    if (this.used + MOST_WORDS_A_DROP > this.chunkWords) this.next();
    const c = this.chunk;
    c[this.used] = V6;
    c.set(src, this.used + 1);
    c.set(dst, this.used + 5);
    this.used += MOST_WORDS_A_DROP;
  }

  /** The log as plain data (the chunks' buffers can be moved to another thread rather than copied); the log is finished. */
  parts(): AddressLogParts {
    if (this.used > 0) this.next();
    return { chunks: this.kept, fd: this.opts.fd, fileBytes: this.fileBytes };
  }

  // the chunk is full: kept in memory within the budget, else written to the file
  private next(): void {
    const fd = this.opts.fd;
    if (this.fileBytes === 0 && (fd < 0 || (this.keptWords + this.used) * 4 <= this.opts.memoryBytes)) {
      this.kept.push(this.chunk.subarray(0, this.used));
      this.keptWords += this.used;
      this.chunk = new Int32Array(this.chunkWords);
    } else {
      const bytes = new Uint8Array(this.chunk.buffer, 0, this.used * 4);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, this.fileBytes + done);
      this.fileBytes += bytes.length;
    }
    this.used = 0;
  }
}

/** Counts every drop of a log in order (its file read `readWords` words at a time; the file stays open). */
export function countAddressLog(log: AddressLogParts, count: AddressCounter, readWords = CHUNK_WORDS): void {
  for (const chunk of log.chunks) countWords(chunk, chunk.length, count);
  if (log.fileBytes === 0) return;
  const words = new Int32Array(Math.max(readWords, MOST_WORDS_A_DROP));
  const bytes = new Uint8Array(words.buffer);
  let have = 0; // bytes in `bytes`
  for (let at = 0; at < log.fileBytes; ) {
    const n = readSync(log.fd, bytes, have, Math.min(bytes.length - have, log.fileBytes - at), at);
    if (n === 0) throw new Error('the address log file ended early');
    at += n;
    have += n;
    const done = countWords(words, have >> 2, count);
    bytes.copyWithin(0, done * 4, have);
    have -= done * 4;
  }
  if (have > 0) throw new Error('the address log ends inside a drop');
}

/** Closes a spill file (openSpillFile); -1 is no file. */
export function closeSpillFile(fd: number): void {
  if (fd >= 0) closeSync(fd);
}

// counts the whole drops in words[0, n); returns the words they took
function countWords(w: Int32Array, n: number, count: AddressCounter): number {
  let i = 0;
  for (;;) {
    if (i < n && w[i] === V4) {
      if (i + 3 > n) return i;
      count(0, 0, 0xffff, w[i + 1]!, 0, 0, 0xffff, w[i + 2]!);
      i += 3;
    } else if (i < n && w[i] === V6) {
      if (i + MOST_WORDS_A_DROP > n) return i;
      count(w[i + 1]!, w[i + 2]!, w[i + 3]!, w[i + 4]!, w[i + 5]!, w[i + 6]!, w[i + 7]!, w[i + 8]!);
      i += MOST_WORDS_A_DROP;
    } else if (i < n) {
      throw new Error(`the address log holds a word that starts no drop (${w[i]})`);
    } else {
      return i;
    }
  }
}
