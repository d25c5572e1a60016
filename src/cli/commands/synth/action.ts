// `edgesim synth`, run: flags checked (UsageErrors), the capture and its labels written. A bad spec
// file comes back from the generator as a SpecError that already names the key. With a
// configuration, the capture's servers are checked against its protected prefixes: traffic that
// reaches none of them is never inspected by Advanced TCP Protection, which a replay would only
// show as protection doing nothing.
import { labelsPathFor } from '../../../capture/synth/label-path.js';
import { writes } from '../../paths.js';
import { ProtectedSpace } from '../../../atp/index.js';
import { generateToFile, resolveSpec, SCENARIOS, specToJson, type FlowSpec, type GenerateOptions } from '../../../capture/synth/index.js';
import { attachSource, UsageError } from '../../../errors.js';
import { NetParseError, parseCidr } from '../../../net/cidr.js';
import { counted, groupDigits } from '../../../numbers.js';
import { loadConfiguration } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';
import { printWarnings } from '../../output.js';
import { progressReporter } from '../../progress.js';

export interface SynthFlags extends ConfigFlags {
  out?: string;
  seed?: string;
  packets?: string;
  duration?: string;
  start?: string;
  countries?: string;
  servers?: string;
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

function list(text: string | undefined): string[] | undefined {
  return text?.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function servers(text: string | undefined): string[] | undefined {
  const given = list(text);
  if (given === undefined) return undefined;
  if (given.length === 0) throw new UsageError('--servers: expected one or more addresses or CIDRs, e.g. 192.0.2.0/24,2001:db8::/48');
  for (const server of given) {
    try {
      parseCidr(server);
    } catch (err) {
      if (err instanceof NetParseError) throw new UsageError(`--servers: ${err.message}`);
      throw err;
    }
  }
  return given;
}

/** What of the capture goes to no protected prefix of the configuration: all of it, or its attack parts by name. */
function unprotected(spec: FlowSpec, space: ProtectedSpace, source: string, scenario: boolean): string[] {
  const missing = spec.parts.filter((p) => !p.servers.some((c) => space.protectsAnyOf(c)));
  const prefix = `protected prefix of ${source}`;
  const hint = scenario ? 'give --servers with your protected prefixes' : 'set the spec\'s "servers" to your protected prefixes';
  if (missing.length === spec.parts.length) return [`no packet of this capture goes to a ${prefix}, so Advanced TCP Protection will inspect none of it; ${hint}`];
  return missing.filter((p) => p.label === 'attack').map((p) => `the attack part ${JSON.stringify(p.name)} goes to no ${prefix}, so Advanced TCP Protection will not see it; ${hint}`);
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
    countries: list(flags.countries),
    servers: servers(flags.servers),
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
  // --out, --labels and --config are checked before the action (paths.ts); the label file --out implies, here
  if (flags.labels === undefined && flags.out !== '-') writes('the label file', labelsPathFor(flags.out));
  const planned = resolveSpec(source, opts);
  const config = flags.config !== undefined || flags.api !== undefined ? await loadConfiguration(flags) : undefined;
  let space: ProtectedSpace | undefined;
  try {
    space = config === undefined ? undefined : new ProtectedSpace(config.snapshot.prefixes, config.snapshot.allowlist);
  } catch (err) {
    throw attachSource(err, config?.source);
  }
  const bar = planned.packets >= PROGRESS_FROM ? await progressReporter('synth', 'packets') : undefined;
  try {
    const r = await generateToFile(source, flags.out, { ...opts, onProgress: bar?.update });
    const attack = r.parts.filter((p) => p.label === 'attack').reduce((s, p) => s + p.packets, 0);
    const where = r.out === '-' ? 'stdout' : r.out;
    process.stderr.write(
      `edgesim: wrote ${counted(r.packets, 'packet')} (${groupDigits(r.packets - attack)} legit, ${groupDigits(attack)} attack; ` +
        `${counted(r.flows, 'flow')}) to ${where}${r.labels ? `, labels to ${r.labels}` : ''}\n`,
    );
    if (space !== undefined && config?.source !== undefined) printWarnings(undefined, unprotected(planned, space, config.source, Object.hasOwn(SCENARIOS, source)));
  } finally {
    bar?.stop();
  }
}
