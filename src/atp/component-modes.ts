// Which mode a component applies to a packet, and which scope's meter goes with it, for one run: the
// compiled filters and rules (component-rules.ts, shared by every run of a configuration) decide,
// and the run keeps a meter per rule and a component-wide default one, as the rules name them.
import type { PacketRecord } from '../capture/record.js';
import { DEFAULT_SOURCE, type ComponentRules, type ModeSource } from './component-rules.js';
import type { AtpOptions } from './options.js';
import { RateMeter } from './rate-meter.js';
import { Mode } from './vocabulary.js';

/** Where a packet's mode and thresholds came from, for an explanation (computed only when asked). */
export interface ModeResolution {
  mode: number;
  modeFrom: ModeSource;
  thresholdsFrom: ModeSource;
  meter: RateMeter;
}

/** A component's modes in one run: resolve() picks a packet's mode and meter. */
export class ComponentModes {
  /** after resolve(): the mode code, what set it, the meter to count on, whether the SYN mitigation is retransmit-based */
  mode: number = Mode.OFF;
  source: ModeSource = DEFAULT_SOURCE;
  meter: RateMeter;
  retransmit = false;

  /** by the rules' meter numbers; the component default's last */
  readonly meters: RateMeter[];
  private readonly defaultMeter: RateMeter;

  constructor(
    readonly rules: ComponentRules,
    options: AtpOptions,
  ) {
    this.meters = rules.meters.map((m) => new RateMeter(m.stage, m.scope, m.name, m.rateSensitivity, m.burstSensitivity, options, options[m.stage]));
    this.defaultMeter = this.meters[this.meters.length - 1];
    this.meter = this.defaultMeter;
  }

  /** Sets mode, its source, meter and retransmit for the packet; returns the mode code. */
  resolve(rec: PacketRecord): number {
    const rule = this.rules.rule(rec);
    const filter = this.rules.filter(rec);
    const mode = filter !== null ? filter.mode : rule === null ? Mode.OFF : rule.mode;
    this.mode = mode;
    this.source = filter !== null ? filter.source : rule === null ? DEFAULT_SOURCE : rule.source;
    this.meter = rule === null ? this.defaultMeter : this.meters[rule.meter];
    this.retransmit = rule !== null && rule.retransmit;
    return mode;
  }

  /** The packet's mode, what set it, and where its thresholds come from (resolve() as a value, for explanations). */
  resolution(rec: PacketRecord): ModeResolution {
    const mode = this.resolve(rec);
    const rule = this.rules.rule(rec);
    return { mode, modeFrom: this.source, thresholdsFrom: rule === null ? DEFAULT_SOURCE : rule.source, meter: this.meter };
  }
}
