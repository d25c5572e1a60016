// A progress bar on stderr for long replays, shown only when stderr is a terminal.
import { SingleBar } from 'cli-progress';

export interface ProgressReporter {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export function progressReporter(label: string): ProgressReporter | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {percentage}% | {value}/{total} MB | eta {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  });
  let started = false;
  return {
    update(done, total) {
      const mb = (x: number) => Math.round(x / 1e5) / 10;
      if (!started) {
        bar.start(mb(total), 0);
        started = true;
      }
      bar.update(mb(done));
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
