// A buffered text writer to a file or stdout that writes synchronously in 64 KiB chunks. The replay
// calls its sinks synchronously per packet, so a synchronous write gives natural backpressure: a slow
// consumer (a pipe into jq) slows the replay instead of growing memory. A closed pipe (`| head`)
// surfaces as an EPIPE error, which the CLI treats as a normal end. On stdout it writes to the file
// descriptor itself, past process.stdout's guard, so it keeps a LineGuard of its own (terminal-text.ts).
import { closeSync, openSync, writeSync } from 'node:fs';
import { OutputError } from '../../errors.js';
import { LineGuard } from '../../terminal-text.js';

const FLUSH_AT = 64 * 1024;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class TextSink {
  private parts: string[] = [];
  private size = 0;
  private readonly fd: number;
  private readonly owned: boolean;
  private readonly guard: LineGuard | null;

  /** `path` of '-' or undefined writes to stdout. */
  constructor(private readonly path?: string) {
    if (path === undefined || path === '-') {
      this.fd = 1;
      this.owned = false;
      this.guard = new LineGuard();
    } else {
      this.guard = null;
      try {
        this.fd = openSync(path, 'w');
      } catch (err) {
        throw new OutputError(path, err);
      }
      this.owned = true;
    }
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    const buf = Buffer.from(this.guard === null ? text : this.guard.pass(text), 'utf8');
    this.parts = [];
    this.size = 0;
    let off = 0;
    while (off < buf.length) {
      try {
        off += writeSync(this.fd, buf, off, buf.length - off);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // a closed pipe (`| head`) ends the command quietly in cli/main.ts; any other failure is the user's file
        if (code === 'EPIPE') throw err;
        if (code !== 'EAGAIN') throw new OutputError(this.path === undefined || this.path === '-' ? 'standard output' : this.path, err);
        Atomics.wait(sleeper, 0, 0, 1); // the pipe is full: wait for the reader
      }
    }
  }

  close(): void {
    this.flush();
    if (this.owned) closeSync(this.fd);
  }
}
