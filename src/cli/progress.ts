// A progress bar on stderr for long work (replays in megabytes read, syntheses in packets written),
// shown only when stderr is a terminal (the bar's library is loaded only then).

export interface ProgressReporter {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export async function progressReporter(label: string, unit: 'bytes' | 'packets' = 'bytes'): Promise<ProgressReporter | undefined> {
  if (!process.stderr.isTTY) return undefined;
  const { SingleBar } = await import('cli-progress');
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
