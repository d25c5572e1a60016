// `edgesim synth` for the library: a synthetic capture (a named scenario or a spec object) written
// to a pcap file, with its label sidecar.
import { generateToFile, type GenerateOptions, type GenerateResult } from '../capture/synth/index.js';
import { optionsArgument, stringArgument } from './arguments.js';

export type SynthOptions = Omit<GenerateOptions, 'onProgress'>;
export type SynthResult = GenerateResult;

/** Writes the capture of a scenario (e.g. 'syn-flood') or spec to `out`; throws SpecError naming a bad key of a spec. */
export async function synth(scenarioOrSpec: string | object, out: string, options: SynthOptions = {}): Promise<SynthResult> {
  stringArgument('synth', 'out', out);
  return generateToFile(scenarioOrSpec, out, optionsArgument('synth', options));
}
