// CPU seconds (user + system) of this process while `run` runs: on a shared machine, wall time
// measures the neighbours too; and the median of several such figures.
export async function cpuSeconds(run: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await run();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}
