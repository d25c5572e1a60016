// The components the engine runs, in the order it offers them a packet: each one's spec (its words
// and keys, src/protection-components.ts) with how a run makes it. The list every stage derives from
// is PROTECTION_COMPONENTS; this is the same list with each entry's module (a test adds a component
// of its own by replacing both modules: test/atp/third-component.test.ts).
import { PROTECTION_COMPONENTS, type ComponentName } from '../protection-components.js';
import type { ComponentModule } from './atp-component.js';
import { OUT_OF_STATE_PROTECTION } from './out-of-state-protection.js';
import { SYN_FLOOD_PROTECTION } from './syn-protection.js';

export type { ComponentModule } from './atp-component.js';

const MODULES: Record<ComponentName, ComponentModule> = {
  syn_protection: SYN_FLOOD_PROTECTION,
  tcp_flow_protection: OUT_OF_STATE_PROTECTION,
};

/** Every component, in the order of PROTECTION_COMPONENTS. */
export const COMPONENT_MODULES: readonly ComponentModule[] = PROTECTION_COMPONENTS.map((spec) => MODULES[spec.name]);
