// Every kind of case a suite may hold, by the key that marks it. A new kind (e.g. `space:` cases
// for address-space properties) is one CaseKind object added to this list: loading, validation of
// its keys and the reports need nothing else.
import type { CaseKind } from '../suite.js';
import { captureKind } from './capture.js';
import { packetKind, packetsKind } from './packet.js';
import { scenarioKind } from './scenario.js';
import { spaceKind } from './space.js';

export const CASE_KINDS: readonly CaseKind[] = [packetKind, packetsKind, captureKind, scenarioKind, spaceKind];
