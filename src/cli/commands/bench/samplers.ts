// The processes that measure bench's figures for --save, --compare and --against: fresh processes
// running the same command line as samplers, each measuring one configuration (--config, or
// --against's) and printing its figures as JSON. The process is the unit of the comparison
// (profile/pooled-figures.ts), so figures kept or judged come from several of them.
import { spawnSync } from 'node:child_process';
import { UserError } from '../../../errors.js';
import type { SampledFigure } from '../../../profile/pooled-figures.js';

/** Which configuration a process measures: --config's or --against's. */
export type Side = 'config' | 'against';

/** Set (to a Side) in a process that only measures the figures for its parent, and prints them as JSON. */
const SAMPLER = 'EDGESIM_BENCH_SAMPLER';

/** The side this process measures as a sampler, or undefined when it is the command the user ran. */
export function samplerSide(): Side | undefined {
  const side = process.env[SAMPLER];
  return side === 'config' || side === 'against' ? side : undefined;
}

/** The figures of a fresh sampler process for each of `sides`, measured one after the other in that order. */
export function figuresOfSamplers(sides: readonly Side[]): SampledFigure[][] {
  return sides.map((side) => {
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
      env: { ...process.env, [SAMPLER]: side },
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    if (r.status !== 0) throw new UserError(`a measuring process failed: ${(r.stderr ?? '').trim().split('\n')[0] || `exit code ${r.status}`}`);
    return JSON.parse(r.stdout) as SampledFigure[];
  });
}
