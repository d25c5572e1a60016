// Snapshots and options for ATP tests.
import type { AtpOptionsInput } from '../../../src/atp/index.js';
import type { ProtectionFilter, ProtectionRule, Snapshot } from '../../../src/config/snapshot.js';

export const SERVER_NET = '203.0.113';
export const SERVER = `${SERVER_NET}.10`;

/** Thresholds so low that every evaluated packet is above them: for tests of the state machine. */
export const ALWAYS_MITIGATING: AtpOptionsInput = {
  learningSeconds: 0,
  syn_protection: { baselinePps: 0, minRatePps: 0.01, minBurstPps: 0.01 },
  tcp_flow_protection: { baselinePps: 0, minRatePps: 0.01, minBurstPps: 0.01 },
};

export function rule(mode: ProtectionRule['mode'], more: Partial<ProtectionRule> = {}): ProtectionRule {
  return { scope: 'global', name: 'global', mode, rate_sensitivity: 'medium', burst_sensitivity: 'medium', ...more };
}

export function snapshot(parts: {
  syn?: ProtectionRule[];
  oos?: ProtectionRule[];
  synFilters?: ProtectionFilter[];
  oosFilters?: ProtectionFilter[];
  prefixes?: Snapshot['prefixes'];
  allowlist?: Snapshot['allowlist'];
  enabled?: boolean;
}): Snapshot {
  return {
    tcp_protection_status: { enabled: parts.enabled ?? true },
    prefixes: parts.prefixes ?? [{ prefix: `${SERVER_NET}.0/24`, excluded: false }],
    allowlist: parts.allowlist ?? [],
    syn_protection: { rules: parts.syn ?? [], filters: parts.synFilters ?? [] },
    tcp_flow_protection: { rules: parts.oos ?? [], filters: parts.oosFilters ?? [] },
  };
}
