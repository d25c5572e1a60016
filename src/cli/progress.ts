// A progress bar on stderr for long work (replays in megabytes read, syntheses in packets written),
// shown only when stderr is a terminal.
import { SingleBar } from 'cli-progress';

export interface ProgressReporter {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export function progressReporter(label: string, unit: 'bytes' | 'packets' = 'bytes'): ProgressReporter | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit === 'bytes' ? 'MB' : 'packets'} | eta {eta_formatted}`,
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
