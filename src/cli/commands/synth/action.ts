// `edgesim synth`, run: flags checked (UsageErrors), the capture and its labels written. A bad spec
// file comes back from the generator as a SpecError that already names the key.
import { generateToFile, resolveSpec, specToJson, type GenerateOptions } from '../../../capture/synth/index.js';
import { UsageError } from '../../../errors.js';
import { groupDigits } from '../../../numbers.js';
import { progressReporter } from '../../progress.js';

export interface SynthFlags {
  out?: string;
  seed?: string;
  packets?: string;
  duration?: string;
  start?: string;
  countries?: string;
  labels?: string | false;
  nanosecond?: boolean;
  printSpec?: boolean;
}

/** Outputs this big get a progress bar (on a terminal). */
const PROGRESS_FROM = 200_000;

function wholeNumber(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a whole number from ${min} to ${max}`);
  }
  return Number(text);
}

function options(flags: SynthFlags): GenerateOptions {
  let duration: number | undefined;
  if (flags.duration !== undefined) {
    duration = Number(flags.duration);
    if (!/^[0-9]*\.?[0-9]+$/.test(flags.duration) || !(duration > 0)) throw new UsageError(`--duration: ${JSON.stringify(flags.duration)} is not a number of seconds above 0`);
  }
  let start: number | string | undefined = flags.start;
  if (start !== undefined && /^[0-9]+$/.test(start)) start = Number(start);
  return {
    seed: wholeNumber('--seed', flags.seed, 0, 0xffffffff),
    packets: wholeNumber('--packets', flags.packets, 1, 100_000_000),
    duration,
    start,
    countries: flags.countries?.split(',').map((c) => c.trim()).filter((c) => c !== ''),
    labels: flags.labels === false ? null : flags.labels,
    nanosecond: flags.nanosecond,
  };
}

export async function run(source: string, flags: SynthFlags): Promise<void> {
  const opts = options(flags);
  if (flags.printSpec) {
    process.stdout.write(`${JSON.stringify(specToJson(resolveSpec(source, opts)), null, 2)}\n`);
    return;
  }
  if (flags.out === undefined) throw new UsageError('--out FILE is required (use --out - for stdout)');
  const planned = resolveSpec(source, opts);
  const bar = planned.packets >= PROGRESS_FROM ? await progressReporter('synth', 'packets') : undefined;
  try {
    const r = await generateToFile(source, flags.out, { ...opts, onProgress: bar?.update });
    const attack = r.parts.filter((p) => p.label === 'attack').reduce((s, p) => s + p.packets, 0);
    const where = r.out === '-' ? 'stdout' : r.out;
    process.stderr.write(
      `edgesim: wrote ${groupDigits(r.packets)} packet${r.packets === 1 ? '' : 's'} (${groupDigits(r.packets - attack)} legit, ${groupDigits(attack)} attack; ` +
        `${groupDigits(r.flows)} flows) to ${where}${r.labels ? `, labels to ${r.labels}` : ''}\n`,
    );
  } finally {
    bar?.stop();
  }
}
