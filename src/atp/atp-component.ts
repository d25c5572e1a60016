// What every ATP component is to the engine. The engine offers each protected packet to its
// components in the vendor's order — SYN-flood protection (SYNs and SYN-ACKs, and the packets of a
// connection its challenge holds), then out-of-state protection (every other TCP packet) — and the
// first that takes the packet decides it, in the mode its filters and rules give that packet. So the
// engine names no component: it loops over them, and what a component reads of a packet, the modes
// it resolves and what it counts are its own.
import type { PacketRecord } from '../capture/record.js';
import type { ProtectionComponentSpec } from '../protection-components.js';
import type { ComponentModes } from './component-modes.js';
import type { FlowTable } from './flow-table.js';
import type { AtpOptions } from './options.js';
import type { ComponentCounters } from './report.js';
import { Mode } from './vocabulary.js';

/** A field of the packet record that a component reads to decide a packet. */
export type RecordField = keyof PacketRecord;

/** inspect()'s answer when the component lets the packet go on to the next component (it removed the connection's entry). */
export const PASSED_ON = -1;

/**
 * A component as the engine's list holds it (components.ts): its spec (words and keys,
 * src/protection-components.ts) and how a run makes its instance.
 */
export interface ComponentModule {
  readonly spec: ProtectionComponentSpec;
  /**
   * A run's instance: `stage` is its place in the path's list (its code in decisions and reports),
   * `modes` its filters and rules for this run, `table` the connections every component shares.
   */
  create(stage: number, modes: ComponentModes, table: FlowTable, options: AtpOptions): AtpComponent;
}

export interface AtpComponent {
  /** its code in decisions and reports: its place in the path's list of components */
  readonly stage: number;
  /**
   * the record's fields it reads to take and decide a packet, beyond what the engine reads for every
   * packet (ENGINE_READS); test/atp/component-reads.test.ts checks it against the reads themselves.
   * Nothing derives from it yet: the compiled lane reads protection's fields with the decoder's own
   * TCP reader (sim/decide-frame.ts)
   */
  readonly reads: readonly RecordField[];
  readonly modes: ComponentModes;
  /** packets by mode, drops and notes by reason */
  readonly counters: ComponentCounters;
  /** after inspect(): the packet belonged to no connection and could not be judged (the learning window) */
  readonly undecided: boolean;
  /** Whether the packet, of the connection in `slot` (-1: none), is this component's. */
  takes(rec: PacketRecord, slot: number): boolean;
  /** Decides the packet in `mode` (its modes resolved for it): a Reason code (NONE: pass), or PASSED_ON. */
  inspect(rec: PacketRecord, t: number, slot: number, mode: number): number;
}

/**
 * The fields the engine reads of every packet it inspects, before any component: the time, which
 * headers are there, and the connection's key (addresses and ports).
 */
export const ENGINE_READS: readonly RecordField[] = ['tsSec', 'tsNsec', 'present', 'ipVersion', 'src4', 'dst4', 'src6', 'dst6', 'srcPort', 'dstPort', 'frame'];

/** whether a component in `mode` evaluates packets (enabled or monitoring) */
export function evaluates(mode: number): boolean {
  return mode === Mode.ENABLED || mode === Mode.MONITORING;
}
