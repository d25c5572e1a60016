// generateToFile(): a scenario or flow spec in, a pcap and its label sidecar out. The one entry
// point the CLI and the benchmarks share: it resolves a scenario name, a JSON spec file or a spec
// object into a validated FlowSpec, then streams the generator's frames into the pcap writer and
// the label writer.
import { readFileSync } from 'node:fs';
import { systemErrorText } from '../../errors.js';
import { PcapWriter } from '../pcap-writer.js';
import { generate } from './frame-stream.js';
import type { GenerateSummary } from './frame-stream.js';
import { LabelWriter, labelsPathFor } from './labels.js';
import { SCENARIOS, scenarioSpec } from './scenarios.js';
import { SPEC_DEFAULTS, SpecError, parseSpec } from './spec.js';
import type { FlowSpec, SpecOverrides } from './spec.js';

/** Options of generateToFile. */
export interface GenerateOptions extends SpecOverrides {
  /** source countries of a scenario's legitimate traffic */
  countries?: string[];
  /** the servers of a scenario's parts, addresses or CIDRs */
  servers?: string[];
  /** where the labels go; default `<out>.labels.ndjson` (none when out is '-'); null = no labels */
  labels?: string | null;
  /** nanosecond pcap instead of microsecond */
  nanosecond?: boolean;
  onProgress?: (done: number, total: number) => void;
}

/** What generateToFile wrote. */
export interface GenerateResult extends GenerateSummary {
  spec: FlowSpec;
  out: string;
  labels: string | null;
}

/**
 * Resolves a scenario name, a path to a JSON flow spec (ending in .json) or a flow spec object into
 * a validated FlowSpec. Throws SpecError naming what is wrong.
 */
export function resolveSpec(scenarioOrSpec: string | object, opts: GenerateOptions = {}): FlowSpec {
  const overrides: SpecOverrides = { seed: opts.seed, packets: opts.packets, duration: opts.duration, start: opts.start };
  if (typeof scenarioOrSpec === 'object') return parseSpec(scenarioOrSpec, overrides);
  if (Object.hasOwn(SCENARIOS, scenarioOrSpec)) {
    const duration = opts.duration ?? SPEC_DEFAULTS.duration;
    if (!(typeof duration === 'number' && duration > 0)) throw new SpecError(`duration: expected a number of seconds more than 0, got ${duration}`);
    return parseSpec(scenarioSpec(scenarioOrSpec, { duration, countries: opts.countries, servers: opts.servers }), overrides);
  }
  if (!scenarioOrSpec.endsWith('.json')) {
    throw new SpecError(`unknown scenario ${JSON.stringify(scenarioOrSpec)}; expected one of ${Object.keys(SCENARIOS).join(', ')} or a flow spec file (.json)`);
  }
  let text: string;
  try {
    text = readFileSync(scenarioOrSpec, 'utf8');
  } catch (err) {
    throw new SpecError(`cannot read ${scenarioOrSpec}: ${systemErrorText(err)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SpecError(`${scenarioOrSpec}: not valid JSON: ${(err as Error).message}`);
  }
  if (opts.countries) throw new SpecError('--countries applies to built-in scenarios; put "countries" in the spec\'s parts instead');
  if (opts.servers) throw new SpecError('--servers applies to built-in scenarios; put "servers" in the spec\'s parts instead');
  try {
    return parseSpec(raw, overrides);
  } catch (err) {
    if (err instanceof SpecError) throw new SpecError(`${scenarioOrSpec}: ${err.message}`);
    throw err;
  }
}

/** Generates a scenario or flow spec into a pcap at `outPath` ('-' = stdout) and its label sidecar. */
export async function generateToFile(scenarioOrSpec: string | object, outPath: string, opts: GenerateOptions = {}): Promise<GenerateResult> {
  const spec = resolveSpec(scenarioOrSpec, opts);
  const labelsPath = opts.labels === undefined ? (outPath === '-' ? null : labelsPathFor(outPath)) : opts.labels;
  const pcap = PcapWriter.open(outPath, { nanosecond: opts.nanosecond });
  let labels: LabelWriter | null = null;
  try {
    labels = labelsPath === null ? null : LabelWriter.open(labelsPath);
    const writer = labels;
    const tags = spec.parts.map((p) => writer?.tag(p.label, p.name) ?? 0);
    // a view of the frame buffer per frame length, made once: no allocation per packet
    const views: Uint8Array[] = [];
    const summary = generate(spec, {
      frame(data, len, timeUs, part, flow) {
        const sec = Math.floor(timeUs / 1e6);
        const view = views[len] ?? (views[len] = data.subarray(0, len));
        pcap.write(view, spec.start + sec, (timeUs - sec * 1e6) * 1000);
        writer?.write(tags[part.index]!, flow);
      },
    }, opts.onProgress);
    return { ...summary, spec, out: outPath, labels: labelsPath };
  } finally {
    labels?.close();
    await pcap.close();
  }
}
