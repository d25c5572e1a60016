// `edgesim diff CAPTURE --config A --against B` (or --plan PLAN.json): the capture decided by both configurations, the
// frames decided differently reported as a table, JSON or NDJSON, optionally written to a pcap.
// Exit 0 when nothing changed, 1 when something did (as diff(1)); errors exit 1 or 2 through main.
import { attachSource } from '../../../errors.js';
import { buildPacketPath, type BuiltPath } from '../../../sim/build.js';
import { diffCapture } from '../../../sim/diff.js';
import { diffJson, diffLine, formatDiff } from '../../../sim/outputs/diff-report.js';
import { FramePcap } from '../../../sim/outputs/packet-sinks.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { DataFlags } from '../../options.js';
import type { DiffSide } from './sides.js';
import { printWarnings, writeOutput } from '../../output.js';
import { distinctPaths } from '../../paths.js';
import { counted, groupDigits } from '../../../numbers.js';

export interface CaptureDiffFlags extends DataFlags {
  format: 'table' | 'json' | 'ndjson';
  out?: string;
  writeChanged?: string;
}

async function pathFor(side: DiffSide, flags: CaptureDiffFlags): Promise<BuiltPath> {
  const config = await loadConfiguration(side.flags, side.options);
  return buildPacketPath(config.snapshot, dataOptions(flags)).catch((err: unknown) => {
    throw attachSource(err, config.source);
  });
}

export async function runCaptureDiff(capture: string, before: DiffSide, after: DiffSide, flags: CaptureDiffFlags): Promise<void> {
  distinctPaths(capture, [
    ['--out', flags.out],
    ['--write-changed', flags.writeChanged],
  ]);
  const a = await pathFor(before, flags);
  const b = await pathFor(after, flags);
  const input = await OpenCapture.open(capture);
  const lines = flags.format === 'ndjson' ? new TextSink(flags.out) : undefined;
  const pcap = flags.writeChanged === undefined ? undefined : new FramePcap(flags.writeChanged);
  let result;
  try {
    result = await diffCapture(input, a, b, {
      onChange: (rec, x, y) => {
        lines?.write(diffLine(rec, x, y));
        pcap?.write(rec);
      },
    });
  } finally {
    lines?.close();
    await pcap?.close();
  }
  const warnings = [...a.warnings, ...b.warnings.filter((w) => !a.warnings.includes(w)), ...(pcap?.warnings() ?? [])];
  if (flags.format === 'table') writeOutput(flags.out, formatDiff(result, [...warnings, ...result.info.warnings]));
  else if (flags.format === 'json') writeOutput(flags.out, diffJson(result, warnings));
  else {
    printWarnings(undefined, warnings);
    printWarnings(input.name, result.info.warnings);
    process.stderr.write(`edgesim: ${groupDigits(result.changed)} of ${counted(result.packets, 'packet')} decided differently\n`);
  }
  process.exitCode = result.changed === 0 ? 0 : 1;
}
