// `edgesim synth SCENARIO|SPEC.json --out FILE`: writes a synthetic capture and its label sidecar
// (`FILE.labels.ndjson`). Flags are checked here and turned into CliErrors; a bad spec file comes
// back from the generator as a SpecError that already names the key, and is passed on as it is.
import type { Command } from 'commander';
import { generateToFile, resolveSpec, SCENARIOS, SpecError, specToJson } from '../../capture/synth/index.js';
import type { GenerateOptions } from '../../capture/synth/index.js';
import { CliError } from '../errors.js';
import { progressReporter } from '../progress.js';

interface SynthFlags {
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
    throw new CliError(`${flag}: ${JSON.stringify(text)} is not a whole number from ${min} to ${max}`, 2);
  }
  return Number(text);
}

function options(flags: SynthFlags): GenerateOptions {
  let duration: number | undefined;
  if (flags.duration !== undefined) {
    duration = Number(flags.duration);
    if (!/^[0-9]*\.?[0-9]+$/.test(flags.duration) || !(duration > 0)) throw new CliError(`--duration: ${JSON.stringify(flags.duration)} is not a number of seconds above 0`, 2);
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

function asCliError(err: unknown): unknown {
  if (err instanceof SpecError) return new CliError(err.message);
  if (err instanceof Error && /^cannot (create|write) /.test(err.message)) return new CliError(err.message);
  return err;
}

async function run(source: string, flags: SynthFlags): Promise<void> {
  try {
    await synth(source, flags);
  } catch (err) {
    throw asCliError(err);
  }
}

async function synth(source: string, flags: SynthFlags): Promise<void> {
  const opts = options(flags);
  if (flags.printSpec) {
    process.stdout.write(`${JSON.stringify(specToJson(resolveSpec(source, opts)), null, 2)}\n`);
    return;
  }
  if (flags.out === undefined) throw new CliError('--out FILE is required (use --out - for stdout)', 2);
  const planned = resolveSpec(source, opts);
  const bar = planned.packets >= PROGRESS_FROM ? progressReporter('synth', 'packets') : undefined;
  try {
    const r = await generateToFile(source, flags.out, { ...opts, onProgress: bar?.update });
    const attack = r.parts.filter((p) => p.label === 'attack').reduce((s, p) => s + p.packets, 0);
    const where = r.out === '-' ? 'stdout' : r.out;
    process.stderr.write(
      `edgesim: wrote ${r.packets.toLocaleString('en-US')} packet${r.packets === 1 ? '' : 's'} (${(r.packets - attack).toLocaleString('en-US')} legit, ${attack.toLocaleString('en-US')} attack; ` +
        `${r.flows.toLocaleString('en-US')} flows) to ${where}${r.labels ? `, labels to ${r.labels}` : ''}\n`,
    );
  } finally {
    bar?.stop();
  }
}

export function register(program: Command): void {
  const list = Object.entries(SCENARIOS)
    .map(([name, s]) => `  ${name.padEnd(11)} ${s.description}`)
    .join('\n');
  program
    .command('synth')
    .description('write a synthetic capture (pcap) and its labels from a scenario or a JSON flow spec')
    .argument('<scenario>', `a scenario (${Object.keys(SCENARIOS).join(', ')}) or a flow spec file (.json)`)
    .option('-o, --out <file>', 'the pcap to write (- for stdout); labels go to <file>.labels.ndjson')
    .option('--seed <n>', 'random seed: the same seed gives the same bytes (default 1)')
    .option('--packets <n>', 'packets in all (default 10000); in a flow spec, what its share-sized parts divide')
    .option('--duration <seconds>', 'length of the capture (default 60)')
    .option('--start <time>', 'time of the first second: ISO 8601 or seconds since the epoch (default 2024-01-01T00:00:00Z)')
    .option('--countries <codes>', 'source countries of the legitimate traffic, e.g. US,DE,BR (geo default: US,DE,BR)')
    .option('--labels <file>', 'write the labels here instead of <out>.labels.ndjson')
    .option('--no-labels', 'write no label sidecar')
    .option('--nanosecond', 'write a nanosecond pcap (default microsecond)')
    .option('--print-spec', 'print the scenario as a JSON flow spec (every default filled in) and exit')
    .addHelpText('after', `\nScenarios:\n${list}\n\nA flow spec lists parts, e.g.\n  {"packets": 5000, "parts": [{"kind": "handshake", "share": 0.9}, {"kind": "syn-flood", "rate": 500, "start": 10, "duration": 5}]}\nRun with --print-spec on a scenario to see every key.`)
    .action((source: string, flags: SynthFlags) => run(source, flags));
}
