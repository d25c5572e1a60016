// A simulator over one configuration: compiled once, then packets decided one by one (a sequence of
// packets is a conversation: protection state is kept between them until reset()), traced, or
// replayed from a capture. The compiled configuration is kept apart from the run state: reset() and
// each replay take fresh protection state over the same compiled firewall, lists and lookups.
import { parseAtpOptions, type AtpOptionsInput } from '../atp/index.js';
import { readAtpOptionsFile } from '../atp/options-file.js';
import { PacketRecord } from '../capture/record.js';
import { attachSource } from '../errors.js';
import { withFreshState, type PathOptions } from '../sim/build.js';
import { SuitePaths, type CasePath } from '../suite/case-path.js';
import { PacketBuilder } from '../suite/packet-builder.js';
import { tracePacket, type PacketTrace } from '../suite/trace.js';
import { captureArgument, configArgument, optionsArgument } from './arguments.js';
import type { Config } from './config.js';
import { packetSpec, type Packet } from './packet.js';
import { replayRecords, type CaptureInput } from './replay-records.js';
import { verdictRecords, type VerdictRecord, type VerdictRecordOf } from './verdict-record.js';

/** The data the packet path reads, as the CLI's flags of the same names give it. */
export interface SimulatorOptions {
  /** a GeoLite2/DB-IP country database (MMDB) instead of the bundled one (--geoip) */
  geoip?: string;
  /** an ASN database (MMDB) for ip.src.asnum / ip.dst.asnum (--asn) */
  asn?: string;
  /** a folder of managed-list feeds replacing the bundled samples (--lists) */
  lists?: string;
  /** the data center every packet enters at (--colo) */
  colo?: string;
  /** the region packets enter in (--region) */
  region?: string;
  /** ATP model options: an object, or a JSON file of them (--atp-options; src/atp/README.md) */
  atpOptions?: string | AtpOptionsInput;
}

export interface Simulator {
  /** what the user should know about this configuration before reading results */
  readonly warnings: readonly string[];
  /** Decides the next packet of the conversation; throws SuiteError naming a wrong field. */
  decide(packet: Packet): VerdictRecord;
  /** Decides the next packet as decide() does and says how: each stage, and each firewall rule in order. */
  trace(packet: Packet): PacketTrace;
  /** Clears the conversation: fresh protection state (no connections, no rates), frames counted from 1 again. */
  reset(): void;
  /** Replays a capture from fresh protection state; yields exactly the records `replay --format ndjson` writes. */
  replay(capture: CaptureInput): AsyncIterable<VerdictRecord>;
}

function atpOptions(given: SimulatorOptions['atpOptions']): AtpOptionsInput | undefined {
  if (typeof given === 'string') return readAtpOptionsFile(given);
  if (given !== undefined) parseAtpOptions(given);
  return given;
}

class PathSimulator implements Simulator {
  private conversation!: CasePath;
  private builder!: PacketBuilder;
  private readonly rec = new PacketRecord();
  private readonly record: VerdictRecordOf;

  constructor(
    private readonly paths: SuitePaths,
  ) {
    this.record = verdictRecords(paths.firewall);
    this.reset();
  }

  get warnings(): readonly string[] {
    return this.paths.warnings;
  }

  private next(packet: Packet): void {
    const spec = packetSpec(packet);
    this.builder.build(spec, this.rec);
    this.conversation.process(this.rec, spec.lookups);
  }

  decide(packet: Packet): VerdictRecord {
    this.next(packet);
    return this.record(this.rec, this.conversation.verdict);
  }

  trace(packet: Packet): PacketTrace {
    this.next(packet);
    return tracePacket(this.rec, this.conversation.verdict, this.paths.firewall, this.conversation.atp);
  }

  reset(): void {
    this.conversation = this.paths.fresh();
    this.builder = new PacketBuilder();
  }

  async *replay(capture: CaptureInput): AsyncGenerator<VerdictRecord, void, undefined> {
    captureArgument('replay', capture);
    yield* replayRecords(withFreshState(this.paths.built), capture);
  }
}

/** Compiles `config` with the given data; throws ConfigItemError naming a bad item of it (and its file). */
export async function createSimulator(config: Config, options: SimulatorOptions = {}): Promise<Simulator> {
  configArgument('createSimulator', 'the configuration', config);
  options = optionsArgument('createSimulator', options);
  const pathOptions: PathOptions = { geoipPath: options.geoip, asnPath: options.asn, listsDir: options.lists, colo: options.colo, region: options.region, atp: atpOptions(options.atpOptions) };
  try {
    return new PathSimulator(await SuitePaths.open(config.snapshot, pathOptions));
  } catch (err) {
    throw attachSource(err, config.source);
  }
}
