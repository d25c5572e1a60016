// A progress bar on stderr for long work (replays in megabytes read, syntheses in packets written),
// shown only when stderr is a terminal (the bar's library is loaded only then). The bar draws with
// carriage returns and cursor moves, so it writes through a stream of its own on file descriptor 2,
// not through process.stderr, whose guard would show them as text; its label is printable.
import { printable } from '../terminal-text.js';

export interface ProgressReporter {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export async function progressReporter(label: string, unit: 'bytes' | 'packets' = 'bytes'): Promise<ProgressReporter | undefined> {
  if (!process.stderr.isTTY) return undefined;
  const [{ SingleBar }, { WriteStream }] = await Promise.all([import('cli-progress'), import('node:tty')]);
  const bar = new SingleBar({
    stream: new WriteStream(2),
    format: `${printable(label)} [{bar}] {percentage}% | {value}/{total} ${unit === 'bytes' ? 'MB' : 'packets'} | eta {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  });
  let started = false;
  return {
    update(done, total) {
      const scale = (x: number) => (unit === 'bytes' ? Math.round(x / 1e5) / 10 : x);
      if (!started) {
        bar.start(scale(total), 0);
        started = true;
      }
      bar.update(scale(done));
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
