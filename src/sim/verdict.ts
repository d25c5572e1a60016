// What happened to one packet on its way through the path. One instance is reused per packet;
// the stage objects it holds (firewall result, ATP decision) are reused too.
import { AtpDecision, type AtpStage, type MitigationReason } from '../atp/index.js';
import { STAGES } from '../atp/vocabulary.js';
import { SERIES_COLUMNS } from './verdict-series.js';
import type { Firewall, FirewallResult } from '../firewall/firewall.js';

export type Stage = 'firewall' | AtpStage;

/** PacketVerdict.column: the verdict's column of the report's series (verdict-series.ts): 'pass', or the stage that dropped */
const COLUMN_STAGES: ReadonlyArray<Stage | null> = SERIES_COLUMNS.map((c) => (c === 'pass' ? null : c));
const FIREWALL_COLUMN = SERIES_COLUMNS.indexOf('firewall');
/** the column of each ATP component, by its code (SYN, OOS) */
const ATP_COLUMNS = STAGES.map((s) => SERIES_COLUMNS.indexOf(s));

export class PacketVerdict {
  /** the stage that dropped the packet as a number, for counting: its series column (0: passed) */
  column = 0;
  readonly atp = new AtpDecision();

  constructor(readonly firewall: FirewallResult) {}

  get drop(): boolean {
    return this.column !== 0;
  }

  /** the stage that dropped the packet, or null when it passed */
  get stage(): Stage | null {
    return COLUMN_STAGES[this.column];
  }

  /** ATP's mitigation reason when an ATP stage dropped it (ATP's decision holds none otherwise) */
  get reason(): MitigationReason | null {
    return this.atp.reason;
  }

  reset(): void {
    this.column = 0;
    this.firewall.decidingRule = -1;
    this.firewall.matchedCount = 0;
    this.atp.reset();
  }

  /** The verdict of a packet whose firewall result is already written (the fast path decided it). */
  setFromFirewall(): void {
    this.column = this.firewall.drop ? FIREWALL_COLUMN : 0;
    this.atp.reset();
  }

  /** The firewall dropped the packet (its result is in `firewall`). */
  setFirewallDrop(): void {
    this.column = FIREWALL_COLUMN;
  }

  /** The verdict of a packet an ATP component dropped (its decision is in `atp`). */
  setFromAtp(): void {
    this.column = ATP_COLUMNS[this.atp.stageCode]!;
  }
}

/**
 * The rule that decided the packet, as every report names it: the firewall rule that decided, or for
 * a protection drop the ATP filter or rule whose mode applied (its id, or its snapshot path when it
 * has none); null when no rule decided.
 */
export function decidingRule(v: PacketVerdict, firewall: Firewall): string | null {
  const i = v.firewall.decidingRule;
  if (i >= 0) return firewall.rules[i]!.ref;
  return v.stage !== null && v.stage !== 'firewall' ? (v.atp.source?.ref ?? null) : null;
}
