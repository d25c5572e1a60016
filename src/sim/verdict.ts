// What happened to one packet on its way through the path. One instance is reused per packet;
// the stage objects it holds (firewall result, ATP decision) are reused too.
import { AtpDecision, type AtpStage, type MitigationReason } from '../atp/index.js';
import type { Firewall, FirewallResult } from '../firewall/firewall.js';

export type Stage = 'firewall' | AtpStage;

/** PacketVerdict.column: 0 passed, FIREWALL_COLUMN the firewall dropped, ATP_COLUMN + an ATP component's code (SYN, OOS) it dropped. */
export const FIREWALL_COLUMN = 1;
export const ATP_COLUMN = 2;

export class PacketVerdict {
  drop = false;
  /** the stage that dropped the packet, or null when it passed */
  stage: Stage | null = null;
  /** ATP's mitigation reason when an ATP stage dropped it */
  reason: MitigationReason | null = null;
  /** `stage` as a number, for counting (the order of the report's series columns): 0 passed, FIREWALL_COLUMN, ATP_COLUMN + component */
  column = 0;
  readonly atp = new AtpDecision();

  constructor(readonly firewall: FirewallResult) {}

  reset(): void {
    this.drop = false;
    this.stage = null;
    this.reason = null;
    this.column = 0;
    this.firewall.decidingRule = -1;
    this.firewall.matchedCount = 0;
    this.atp.reset();
  }

  /** The verdict of a packet whose firewall result is already written (the fast path decided it). */
  setFromFirewall(): void {
    this.drop = this.firewall.drop;
    this.stage = this.drop ? 'firewall' : null;
    this.reason = null;
    this.column = this.drop ? FIREWALL_COLUMN : 0;
    this.atp.reset();
  }

  /** The verdict of a packet an ATP component dropped (its decision is in `atp`). */
  setFromAtp(): void {
    this.drop = true;
    this.stage = this.atp.stage;
    this.reason = this.atp.reason;
    this.column = ATP_COLUMN + this.atp.stageCode;
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
