// The words ATP's reports are made of, and the small numeric codes the engine uses for them on the
// hot path (a code indexes a table; the string is looked up only when a result is reported).

import { COMPONENT_NAMES, type ComponentName } from '../protection-components.js';

/** An ATP component's name (src/protection-components.ts): SYN-flood protection or out-of-state TCP protection. */
export type AtpStage = ComponentName;

/** Why a component dropped (or, in monitoring mode, would have dropped) a packet; the vendor's Network Analytics words. */
export type MitigationReason = 'NOT_FOUND' | 'UNEXPECTED' | 'OUT_OF_SEQUENCE' | 'ALREADY_CLOSED' | 'CHALLENGE_NEEDED' | 'CHALLENGE_PASSED';

/** The mode that applied to a packet; `off` when no filter or rule of the component applies. */
export type AtpMode = 'enabled' | 'monitoring' | 'disabled' | 'off';

/** The components' names in the order they are offered a packet; a component's code is its place here. */
export const STAGES: readonly AtpStage[] = COMPONENT_NAMES;

/** Reason codes: 0 means "in state, pass"; 1.. index REASONS. */
export const Reason = {
  NONE: 0,
  NOT_FOUND: 1,
  UNEXPECTED: 2,
  OUT_OF_SEQUENCE: 3,
  ALREADY_CLOSED: 4,
  CHALLENGE_NEEDED: 5,
  CHALLENGE_PASSED: 6,
} as const;

export const REASONS: readonly MitigationReason[] = ['NOT_FOUND', 'UNEXPECTED', 'OUT_OF_SEQUENCE', 'ALREADY_CLOSED', 'CHALLENGE_NEEDED', 'CHALLENGE_PASSED'];

export function reasonName(code: number): MitigationReason {
  return REASONS[code - 1];
}

/** Mode codes, ordered as filters are checked (enabled first). */
export const Mode = { OFF: 0, ENABLED: 1, MONITORING: 2, DISABLED: 3 } as const;
export const MODE_NAMES: readonly AtpMode[] = ['off', 'enabled', 'monitoring', 'disabled'];
