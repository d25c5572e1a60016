// `edgesim trace`, run: the packet comes from field=value arguments, a packet file, or a capture's
// frame; it goes through the configuration's path and its trace is printed as a table (terminal) or
// JSON. Arguments are read as the lines of a suite's packet map, so they are checked, typed and
// completed exactly as in `edgesim test`.
import { readFile } from 'node:fs/promises';
import { attachSource, InputError, UsageError } from '../../../errors.js';
import { compilePath } from '../../../sim/build.js';
import { SuitePaths } from '../../../suite/case-path.js';
import { tracePackets } from '../../../suite/kinds/packet.js';
import { parsePacket } from '../../../suite/packet-spec.js';
import { formatTrace } from '../../../suite/reports/trace-text.js';
import { parseSuiteText, SuiteError, type Located } from '../../../suite/source.js';
import type { PacketTrace } from '../../../suite/trace.js';
import { traceFrame } from '../../../suite/trace-frame.js';
import { dataOptions, isCapture, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { writeOutput } from '../../output.js';

export interface TraceFlags extends ConfigFlags, DataFlags {
  packet?: string;
  frame?: number;
  json?: boolean;
  table?: boolean;
}

/** field=value arguments as the YAML lines of a packet map (line N is argument N). */
function assignments(args: readonly string[]): Located {
  const lines = args.map((arg) => {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(`${JSON.stringify(arg)}: expected field=value, e.g. tcp.dstport=22`);
    return `${JSON.stringify(arg.slice(0, eq))}: ${arg.slice(eq + 1)}`;
  });
  return parseSuiteText('arguments', lines.join('\n'));
}

/** The packets to trace, from the arguments or the --packet file. */
async function packetsFrom(input: readonly string[], file: string | undefined): Promise<Located[]> {
  if (file === undefined) return input.length === 0 ? [parseSuiteText('arguments', '{}')] : [assignments(input)];
  if (input.length > 0) throw new UsageError('give the packet as field=value arguments or --packet FILE, not both');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(file, err, 'cannot read the packet');
  }
  const top = parseSuiteText(file, text);
  if (top.type === 'list') return top.items();
  if (top.type === 'map' && top.entries().some(([k]) => k === 'packets')) return top.checkKeys(['packets']).get('packets')!.items('a list of packets');
  if (top.type === 'map' && top.entries().some(([k]) => k === 'packet')) return [top.checkKeys(['packet']).get('packet')!];
  return [top];
}

function usage(err: unknown): unknown {
  // a problem with a field=value argument is a usage error; a packet file's keeps its file:line
  if (err instanceof SuiteError && err.source?.startsWith('arguments:')) return new UsageError(`argument ${err.source.slice('arguments:'.length)}: ${err.detail}`);
  return err;
}

export async function run(input: string[], flags: TraceFlags): Promise<void> {
  const config = await loadConfiguration(flags);
  const options = dataOptions(flags);
  let trace: PacketTrace;
  if (flags.frame !== undefined) {
    if (input.length !== 1 || flags.packet !== undefined) throw new UsageError('--frame N traces a frame of one capture: edgesim trace CAPTURE --frame N');
    if (flags.frame < 1) throw new UsageError('--frame: frames are numbered from 1, as Wireshark numbers them');
    const path = await compilePath(config.snapshot, options).catch((err: unknown) => {
      throw attachSource(err, config.source);
    });
    trace = await traceFrame(path, input[0]!, flags.frame);
  } else {
    if (input.length === 0 && flags.packet === undefined) throw new UsageError('nothing to trace: give FIELD=VALUE assignments, --packet FILE, or CAPTURE --frame N');
    if (input.length === 1 && !input[0]!.includes('=') && (await isCapture(input[0]!))) throw new UsageError(`${input[0]}: to trace a packet of a capture, name its frame: edgesim trace CAPTURE --frame N`);
    let packets;
    try {
      packets = (await packetsFrom(input, flags.packet)).map(parsePacket);
    } catch (err) {
      throw usage(err);
    }
    if (packets.length === 0) throw new UsageError(`${flags.packet}: no packet to trace`);
    const paths = await SuitePaths.open(config.snapshot, options).catch((err: unknown) => {
      throw attachSource(err, config.source);
    });
    trace = tracePackets(packets, packets.length - 1, paths);
  }
  const json = flags.json === true || (flags.table !== true && !process.stdout.isTTY);
  writeOutput(undefined, json ? `${JSON.stringify(trace, null, 2)}\n` : `${formatTrace(trace)}\n`);
}
