// A component's filters and rules, checked and compiled once per configuration — the part of the
// mode decision that no packet changes. Which mode a component applies to a packet follows the
// vendor's documented precedence: a matching filter decides the mode, checked in the order enabled,
// monitoring, disabled (so a filter can switch on traffic whose rules are disabled); otherwise the
// most specific rule whose scope applies (data center over region over global, names compared
// case-insensitively); otherwise the component is off for the packet. The thresholds always come
// from the applicable rule, whatever decided the mode; with no rule at all, a component-wide default
// meter with medium sensitivities is used. The meters themselves are run state (component-modes.ts):
// a rule names its meter by number.
//
// Data-center and region names arrive as interned byte arrays (PacketRecord.coloName/coloRegion),
// so the rule for a name is cached by the array itself: one Map lookup per packet, no strings.
import type { PacketRecord } from '../capture/record.js';
import type { ProtectionComponent } from '../config/snapshot.js';
import { findColo } from '../data/colos.js';
import { ConfigItemError } from '../errors.js';
import type { Sensitivity } from './options.js';
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import { Mode, type AtpStage } from './vocabulary.js';

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

/** The meter a rule's packets count on (and the component default's): what a run makes one from. */
export interface MeterSpec {
  readonly stage: AtpStage;
  readonly scope: 'global' | 'region' | 'datacenter' | 'default';
  readonly name: string;
  readonly rateSensitivity: Sensitivity;
  readonly burstSensitivity: Sensitivity;
}

export interface ScopedRule {
  readonly name: Uint8Array;
  readonly mode: number;
  readonly retransmit: boolean;
  /** its meter's number in `meters` */
  readonly meter: number;
  readonly source: ModeSource;
}

interface CompiledFilter {
  readonly mode: number;
  readonly matches: FilterPredicate;
  readonly source: ModeSource;
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

/** The filters and scoped rules of one component, checked and compiled; rule() and filter() find a packet's. */
export class ComponentRules {
  /** one per rule, in the snapshot's order, then the component default's (the last) */
  readonly meters: MeterSpec[] = [];
  /** whether any filter or rule can put a packet in enabled or monitoring mode */
  readonly acting: boolean;
  /** whether a rule is scoped by region or data center (so packets need their ingress data center) */
  readonly scoped: boolean;

  /** in the order they are checked: enabled, monitoring, disabled, each in the snapshot's order */
  private readonly filters: CompiledFilter[];
  private global: ScopedRule | null = null;
  private readonly regions = new ScopeIndex();
  private readonly datacenters = new ScopeIndex();

  constructor(readonly stage: number, component: ProtectionComponent | undefined, compileFilter: FilterCompiler) {
    const spec = PROTECTION_COMPONENTS[stage];
    const at = spec.name;
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
      if (spec.mitigationType && rule.mitigation_type !== undefined) {
        const r = Object.hasOwn(MITIGATION_TYPES, rule.mitigation_type) ? MITIGATION_TYPES[rule.mitigation_type] : undefined;
        if (r === undefined) throw new ConfigItemError(`${path}.mitigation_type`, `unknown mitigation type ${JSON.stringify(rule.mitigation_type)} (expected challenge or retransmit)`);
        retransmit = r;
      }
      const meter = this.meters.push({ stage: at, scope: rule.scope, name: rule.scope === 'global' ? 'global' : name, rateSensitivity, burstSensitivity }) - 1;
      const id = typeof rule.id === 'string' ? rule.id : null;
      const source: ModeSource = Object.freeze({ kind: 'rule', ref: id ?? path, id, scope: rule.scope, name, expression: null });
      const scoped: ScopedRule = { name: new TextEncoder().encode(lower), mode, retransmit, meter, source };
      if (rule.scope === 'global') this.global = scoped;
      else (rule.scope === 'region' ? this.regions : this.datacenters).rules.push(scoped);
      if (mode !== Mode.DISABLED) acting = true;
    });
    const filters: CompiledFilter[] = [];
    (component?.filters ?? []).forEach((filter, k) => {
      const path = `${at}.filters[${k}]`;
      if (typeof filter !== 'object' || filter === null) throw new ConfigItemError(path, 'expected a filter object');
      const mode = modeOf(filter.mode, `${path}.mode`);
      if (typeof filter.expression !== 'string') throw new ConfigItemError(`${path}.expression`, 'expected an expression string');
      const matches = compileFilter(filter.expression, `${path}.expression`);
      const id = typeof filter.id === 'string' ? filter.id : null;
      filters.push({ mode, matches, source: Object.freeze({ kind: 'filter', ref: id ?? path, id, scope: null, name: null, expression: filter.expression }) });
      if (mode !== Mode.DISABLED) acting = true;
    });
    this.filters = filters.sort((a, b) => a.mode - b.mode);
    this.meters.push({ stage: at, scope: 'default', name: 'default', rateSensitivity: 'medium', burstSensitivity: 'medium' });
    this.acting = acting;
    this.scoped = this.regions.rules.length > 0 || this.datacenters.rules.length > 0;
  }

  /** The most specific rule whose scope applies to the packet, or null. */
  rule(rec: PacketRecord): ScopedRule | null {
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

  /** The first filter (enabled, then monitoring, then disabled) that matches the packet, or null. */
  filter(rec: PacketRecord): CompiledFilter | null {
    const filters = this.filters;
    for (let i = 0; i < filters.length; i++) if (filters[i].matches(rec)) return filters[i];
    return null;
  }
}
