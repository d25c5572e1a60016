// Advanced TCP Protection's components, listed once: the words, keys and help of each, in the order
// the engine offers a packet to them (SYN-flood protection, then out-of-state TCP protection). A
// component is this entry and its module in src/atp/ (what it takes, how it decides, its state),
// which src/atp/components.ts pairs with the entry; the snapshot's and the API's keys, the import's parts, the options, the verdicts' `stage`,
// the series and tables, the HTML report, the suites' expectations, the analysis and the help all
// derive from this list. Imports nothing; the stages import it.

/** What every stage knows of a component without running it. */
export interface ProtectionComponentSpec {
  /** its key everywhere: in a snapshot and the API's paths, the options, verdicts' `stage`, reports */
  readonly name: string;
  /** its title in reports: `SYN-flood protection` */
  readonly title: string;
  /** its word in the report's tables: `SYN protection` */
  readonly short: string;
  /** the report's series label of the packets it dropped */
  readonly dropped: string;
  /** one of its rules and one of its filters, as the API's messages and import's plan name them */
  readonly rule: string;
  readonly filter: string;
  /** its rules take `mitigation_type` (challenge or retransmit) */
  readonly mitigationType: boolean;
  /** its colour in the HTML report's charts, bars and tiles */
  readonly color: string;
  /** what it inspects and what its meter counts, one line for help and docs */
  readonly help: string;
}

export const PROTECTION_COMPONENTS = [
  {
    name: 'syn_protection',
    title: 'SYN-flood protection',
    short: 'SYN protection',
    dropped: 'dropped by SYN protection',
    rule: 'SYN flood rule',
    filter: 'SYN flood filter',
    mitigationType: true,
    color: '#edae49',
    help: 'SYNs and SYN-ACKs (and the packets of a connection its challenge holds); its meter counts SYNs and SYN-ACKs',
  },
  {
    name: 'tcp_flow_protection',
    title: 'out-of-state TCP protection',
    short: 'out-of-state',
    dropped: 'dropped as out-of-state',
    rule: 'out-of-state TCP rule',
    filter: 'out-of-state TCP filter',
    mitigationType: false,
    color: '#7b5ea7',
    help: 'every other TCP packet; its meter counts out-of-state packets',
  },
] as const satisfies readonly ProtectionComponentSpec[];

/** A component's name: `syn_protection`, `tcp_flow_protection`. */
export type ComponentName = (typeof PROTECTION_COMPONENTS)[number]['name'];

/** The components' names in the order of the list. */
export const COMPONENT_NAMES: readonly ComponentName[] = PROTECTION_COMPONENTS.map((c) => c.name);

/** The spec of the component named `name` (one of the list's). */
export function componentSpec(name: ComponentName): ProtectionComponentSpec {
  return PROTECTION_COMPONENTS.find((c) => c.name === name)!;
}
