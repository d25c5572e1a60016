// Which mode a component applies to a packet, and which scope's meter and settings go with it —
// the vendor's documented precedence: a matching filter decides the mode, checked in the order
// enabled, monitoring, disabled (so a filter can switch on traffic whose rules are disabled);
// otherwise the most specific rule whose scope applies (data center over region over global,
// names compared case-insensitively); otherwise the component is off for the packet. The
// thresholds always come from the applicable rule, whatever decided the mode; with no rule at all,
// a component-wide default meter with medium sensitivities is used.
//
// Data-center and region names arrive as interned byte arrays (PacketRecord.coloName/coloRegion),
// so the rule for a name is cached by the array itself: one Map lookup per packet, no strings.
import type { PacketRecord } from '../capture/record.js';
import type { ProtectionComponent } from '../config/snapshot.js';
import { findColo } from '../data/colos.js';
import { ConfigItemError } from '../errors.js';
import type { AtpOptions, Sensitivity } from './options.js';
import { RateMeter } from './rate-meter.js';
import { Mode, STAGES, SYN } from './vocabulary.js';

/** A compiled filter expression. */
export type FilterPredicate = (rec: PacketRecord) => boolean;
/** Compiles one filter expression; throws ConfigItemError naming `path` when it does not parse. */
export type FilterCompiler = (expression: string, path: string) => FilterPredicate;

/**
 * What set a component's mode for a packet: a filter, a rule (its scope and name), or nothing (the
 * component is off; as the source of thresholds, the component-wide default). `ref` is the item's
 * id, or its path in the snapshot when it has none (a hand-written file), e.g.
 * `syn_protection.filters[1]`. One frozen object per filter and rule, shared by every packet.
 */
export interface ModeSource {
  readonly kind: 'filter' | 'rule' | 'default';
  readonly ref: string | null;
  readonly id: string | null;
  readonly scope: 'global' | 'region' | 'datacenter' | null;
  readonly name: string | null;
  /** a filter's expression */
  readonly expression: string | null;
}

export const DEFAULT_SOURCE: ModeSource = Object.freeze({ kind: 'default', ref: null, id: null, scope: null, name: null, expression: null });

interface ScopedRule {
  name: Uint8Array;
  mode: number;
  retransmit: boolean;
  meter: RateMeter;
  source: ModeSource;
}

/** Where a packet's mode and thresholds came from, for an explanation (computed only when asked). */
export interface ModeResolution {
  mode: number;
  modeFrom: ModeSource;
  thresholdsFrom: ModeSource;
  meter: RateMeter;
}

const MODES: Record<string, number> = { enabled: Mode.ENABLED, monitoring: Mode.MONITORING, disabled: Mode.DISABLED };
const SENSITIVITY = new Set(['low', 'medium', 'high']);
const MITIGATION_TYPES: Record<string, boolean> = { challenge: false, retransmit: true };
const SCOPES = new Set(['global', 'region', 'datacenter']);
const CACHE_LIMIT = 1024;

function lowerAscii(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
}

function sameName(bytes: Uint8Array, name: Uint8Array): boolean {
  if (bytes.length !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (lowerAscii(bytes[i]) !== name[i]) return false;
  return true;
}

class ScopeIndex {
  private readonly cache = new Map<Uint8Array, ScopedRule | null>();
  readonly rules: ScopedRule[] = [];

  find(bytes: Uint8Array): ScopedRule | null {
    const hit = this.cache.get(bytes);
    if (hit !== undefined) return hit;
    let found: ScopedRule | null = null;
    for (const r of this.rules) if (sameName(bytes, r.name)) found = r;
    if (this.cache.size < CACHE_LIMIT) this.cache.set(bytes, found);
    return found;
  }
}

function modeOf(value: unknown, path: string): number {
  const mode = typeof value === 'string' && Object.hasOwn(MODES, value) ? MODES[value] : undefined;
  if (mode === undefined) throw new ConfigItemError(path, `unknown mode ${JSON.stringify(value)} (expected enabled, monitoring or disabled)`);
  return mode;
}

function sensitivityOf(value: unknown, path: string): Sensitivity {
  if (value === undefined) return 'medium';
  if (typeof value !== 'string' || !SENSITIVITY.has(value)) throw new ConfigItemError(path, `unknown sensitivity ${JSON.stringify(value)} (expected low, medium or high)`);
  return value as Sensitivity;
}

/** The filters and scoped rules of one component, compiled; resolve() picks a packet's mode and meter. */
export class ComponentModes {
  /** after resolve(): the mode code, what set it, the meter to count on, whether the SYN mitigation is retransmit-based */
  mode: number = Mode.OFF;
  source: ModeSource = DEFAULT_SOURCE;
  meter: RateMeter;
  retransmit = false;

  readonly meters: RateMeter[] = [];
  /** whether any filter or rule can put a packet in enabled or monitoring mode */
  readonly acting: boolean;

  private readonly filters: FilterPredicate[][] = [[], [], [], []];
  private readonly filterSources: ModeSource[][] = [[], [], [], []];
  private readonly anyFilter: boolean;
  private global: ScopedRule | null = null;
  private readonly regions = new ScopeIndex();
  private readonly datacenters = new ScopeIndex();
  private readonly defaultMeter: RateMeter;

  constructor(readonly stage: number, component: ProtectionComponent | undefined, options: AtpOptions, compileFilter: FilterCompiler) {
    const at = STAGES[stage];
    const rate = options[at];
    const seen = new Map<string, string>();
    let acting = false;
    (component?.rules ?? []).forEach((rule, k) => {
      const path = `${at}.rules[${k}]`;
      if (typeof rule !== 'object' || rule === null) throw new ConfigItemError(path, 'expected a rule object');
      if (!SCOPES.has(rule.scope)) throw new ConfigItemError(`${path}.scope`, `unknown scope ${JSON.stringify(rule.scope)} (expected global, region or datacenter)`);
      const name = rule.scope === 'global' ? 'global' : rule.name;
      if (typeof name !== 'string' || name === '') throw new ConfigItemError(`${path}.name`, `a ${rule.scope} rule needs the ${rule.scope === 'region' ? 'region' : 'data center'} name`);
      // a data center given by its city code ("lax", as the vendor's examples write it) is that city's first
      const lower = rule.scope === 'datacenter' ? (findColo(name)?.name ?? name.toLowerCase()) : name.toLowerCase();
      const key = `${rule.scope}:${lower}`;
      const twin = seen.get(key);
      if (twin !== undefined) throw new ConfigItemError(path, `a second ${rule.scope} rule for ${JSON.stringify(name)} (the first is ${twin})`);
      seen.set(key, path);
      const mode = modeOf(rule.mode, `${path}.mode`);
      const rateSensitivity = sensitivityOf(rule.rate_sensitivity, `${path}.rate_sensitivity`);
      const burstSensitivity = sensitivityOf(rule.burst_sensitivity, `${path}.burst_sensitivity`);
      let retransmit = false;
      if (stage === SYN && rule.mitigation_type !== undefined) {
        const r = Object.hasOwn(MITIGATION_TYPES, rule.mitigation_type) ? MITIGATION_TYPES[rule.mitigation_type] : undefined;
        if (r === undefined) throw new ConfigItemError(`${path}.mitigation_type`, `unknown mitigation type ${JSON.stringify(rule.mitigation_type)} (expected challenge or retransmit)`);
        retransmit = r;
      }
      const meter = new RateMeter(at, rule.scope, rule.scope === 'global' ? 'global' : name, rateSensitivity, burstSensitivity, options, rate);
      this.meters.push(meter);
      const id = typeof rule.id === 'string' ? rule.id : null;
      const source: ModeSource = Object.freeze({ kind: 'rule', ref: id ?? path, id, scope: rule.scope, name, expression: null });
      const scoped: ScopedRule = { name: new TextEncoder().encode(lower), mode, retransmit, meter, source };
      if (rule.scope === 'global') this.global = scoped;
      else (rule.scope === 'region' ? this.regions : this.datacenters).rules.push(scoped);
      if (mode !== Mode.DISABLED) acting = true;
    });
    (component?.filters ?? []).forEach((filter, k) => {
      const path = `${at}.filters[${k}]`;
      if (typeof filter !== 'object' || filter === null) throw new ConfigItemError(path, 'expected a filter object');
      const mode = modeOf(filter.mode, `${path}.mode`);
      if (typeof filter.expression !== 'string') throw new ConfigItemError(`${path}.expression`, 'expected an expression string');
      this.filters[mode].push(compileFilter(filter.expression, `${path}.expression`));
      const id = typeof filter.id === 'string' ? filter.id : null;
      this.filterSources[mode].push(Object.freeze({ kind: 'filter', ref: id ?? path, id, scope: null, name: null, expression: filter.expression }));
      if (mode !== Mode.DISABLED) acting = true;
    });
    this.anyFilter = this.filters.some((f) => f.length > 0);
    this.defaultMeter = new RateMeter(at, 'default', 'default', 'medium', 'medium', options, rate);
    this.meters.push(this.defaultMeter);
    this.meter = this.defaultMeter;
    this.acting = acting;
  }

  private rule(rec: PacketRecord): ScopedRule | null {
    if (this.datacenters.rules.length > 0 && rec.coloName.length > 0) {
      const r = this.datacenters.find(rec.coloName);
      if (r !== null) return r;
    }
    if (this.regions.rules.length > 0 && rec.coloRegion.length > 0) {
      const r = this.regions.find(rec.coloRegion);
      if (r !== null) return r;
    }
    return this.global;
  }

  /** whether a rule is scoped by region or data center (so packets need their ingress data center) */
  get scoped(): boolean {
    return this.regions.rules.length > 0 || this.datacenters.rules.length > 0;
  }

  /** Sets mode, its source, meter and retransmit for the packet; returns the mode code. */
  resolve(rec: PacketRecord): number {
    const rule = this.rule(rec);
    let mode = rule === null ? Mode.OFF : rule.mode;
    let source = rule === null ? DEFAULT_SOURCE : rule.source;
    if (this.anyFilter) {
      search: for (let m = Mode.ENABLED; m <= Mode.DISABLED; m++) {
        const list = this.filters[m];
        for (let i = 0; i < list.length; i++) {
          if (list[i](rec)) {
            mode = m;
            source = this.filterSources[m][i];
            break search;
          }
        }
      }
    }
    this.mode = mode;
    this.source = source;
    this.meter = rule === null ? this.defaultMeter : rule.meter;
    this.retransmit = rule !== null && rule.retransmit;
    return mode;
  }

  /** The packet's mode, what set it, and where its thresholds come from (resolve() as a value, for explanations). */
  resolution(rec: PacketRecord): ModeResolution {
    const mode = this.resolve(rec);
    const rule = this.rule(rec);
    return { mode, modeFrom: this.source, thresholdsFrom: rule === null ? DEFAULT_SOURCE : rule.source, meter: this.meter };
  }
}
