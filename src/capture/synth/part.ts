// A part of a flow spec made ready to run: its random streams, address pools, its window in
// microseconds from the capture's start, and its plan: how many flows, how many exchanges each,
// and where the packet budget cuts the last one. The plan is drawn up front from its own random
// stream, so a part yields exactly the packets it was given, and the flows' spawn times can be
// spread evenly over the part's window.
import { AddressPool, FamilyChooser } from './addresses.js';
import { Rng } from './rng.js';
import { KINDS } from './spec.js';
import type { FlowSpec, PartSpec } from './spec.js';

/** Packets of a flow besides its exchanges (two packets each): a TCP session's handshake and close. */
const FLOW_OVERHEAD: Readonly<Record<string, number>> = { handshake: 6 };

export class PartRun {
  readonly rng: Rng;
  readonly sources: AddressPool;
  readonly servers: AddressPool;
  readonly family: FamilyChooser;
  readonly single: boolean;
  readonly startUs: number;
  readonly endUs: number;
  /** spawn times are spread over [startUs, startUs + spanUs) */
  readonly spanUs: number;
  /** flows (single packets for floods) */
  readonly count: number;
  /** exchanges of each flow (flow kinds) */
  readonly exchanges: Uint8Array;
  /** packets of the last flow, which the budget may cut short */
  readonly lastLimit: number;
  readonly packets: number;
  readonly scheduleRng: Rng;

  constructor(readonly index: number, readonly spec: PartSpec, seed: number, budget: number | null) {
    this.rng = new Rng(seed, 2 * index + 1);
    this.scheduleRng = new Rng(seed, 2 * index + 2);
    this.sources = new AddressPool(spec.sources);
    this.servers = new AddressPool(spec.servers);
    this.family = new FamilyChooser(this.sources, this.servers, spec.v6);
    this.single = KINDS[spec.kind].single;
    this.startUs = Math.round(spec.start * 1e6);
    this.endUs = Math.round((spec.start + spec.duration) * 1e6);
    const durUs = this.endUs - this.startUs;
    this.spanUs = this.single ? durUs : durUs - Math.min(durUs / 2, 2_000_000);

    const wanted = budget ?? (spec.packets !== undefined ? spec.packets : spec.rate !== undefined ? Math.round(spec.rate * spec.duration) : -1);
    if (this.single) {
      this.count = wanted;
      this.packets = wanted;
      this.exchanges = new Uint8Array(0);
      this.lastLimit = 1;
      return;
    }
    const overhead = FLOW_OVERHEAD[spec.kind] ?? 0;
    const [lo, hi] = spec.exchanges;
    const draw = (): number => this.scheduleRng.int(lo, hi);
    if (wanted < 0) {
      const flows = spec.flows!;
      this.exchanges = new Uint8Array(flows);
      let sum = 0;
      for (let i = 0; i < flows; i++) {
        this.exchanges[i] = draw();
        sum += overhead + 2 * this.exchanges[i]!;
      }
      this.count = flows;
      this.packets = sum;
      this.lastLimit = overhead + 2 * this.exchanges[flows - 1]!;
      return;
    }
    let ex = new Uint8Array(Math.max(16, Math.ceil(wanted / (overhead + 2 * lo))));
    let n = 0;
    let sum = 0;
    while (sum < wanted) {
      if (n === ex.length) {
        const grown = new Uint8Array(ex.length * 2);
        grown.set(ex);
        ex = grown;
      }
      ex[n] = draw();
      sum += overhead + 2 * ex[n]!;
      n++;
    }
    this.exchanges = ex.subarray(0, n);
    this.count = n;
    this.packets = wanted;
    this.lastLimit = n === 0 ? 0 : overhead + 2 * ex[n - 1]! - (sum - wanted);
  }

  /** Spawn time of flow `i`, microseconds from the capture's start (non-decreasing in i). */
  spawnTime(i: number): number {
    return this.startUs + Math.floor(((i + this.scheduleRng.float()) * this.spanUs) / this.count);
  }

  /** Packets of flow `i`. */
  limit(i: number): number {
    if (i === this.count - 1) return this.lastLimit;
    return (FLOW_OVERHEAD[this.spec.kind] ?? 0) + 2 * this.exchanges[i]!;
  }
}

/**
 * Runs every part of a spec: share-sized parts split spec.packets by largest remainder, so the
 * shares of a scenario that add up to 1 give exactly spec.packets packets.
 */
export function planParts(spec: FlowSpec): PartRun[] {
  const shared = spec.parts.filter((p) => p.share !== undefined);
  const total = Math.round(spec.packets * shared.reduce((s, p) => s + p.share!, 0));
  const exact = shared.map((p) => spec.packets * p.share!);
  const budgets = exact.map(Math.floor);
  let left = total - budgets.reduce((s, b) => s + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    budgets[i]!++;
    left--;
  }
  return spec.parts.map((p, i) => new PartRun(i, p, spec.seed, p.share !== undefined ? budgets[shared.indexOf(p)]! : null));
}
