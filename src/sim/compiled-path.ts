// The compiled path: everything a configuration settles before the first frame, built once and
// never changed — the firewall's rules (compiled to predicates and to one generated evaluator), the
// firewall's compiled program for the compiled lane (made on first use), Advanced TCP Protection's
// configuration, the lists the rules name and the lookups they read. Like wirefilter's Filter, it
// holds no state of a run: a Run (run.ts: `new Run(path)`) holds that, so a replay, a thread of a replay, a suite's
// case, a bench pass or a library's reset takes a new run over the same path, never a new compile,
// and nothing is reset or taken back by hand. decideFrame (decide-frame.ts) decides frames on a path
// in a run.
import { AtpConfiguration, parseAtpOptions, type AtpOptionsInput } from '../atp/index.js';
import type { Snapshot } from '../config/snapshot.js';
import type { Enrichment } from '../data/enrichment.js';
import type { LookupOptions } from '../fields/lookups.js';
import { FastFirewall } from '../fastpath/fast-firewall.js';
import type { Firewall } from '../firewall/firewall.js';
import type { IpSet } from '../net/ip-set.js';

export interface PathOptions extends LookupOptions {
  /** a folder of managed-list feeds replacing the bundled samples */
  listsDir?: string;
  atp?: AtpOptionsInput;
  /** hears each managed list a rule reads from the bundled samples (the CLI says so once a run) */
  onSampleList?: (name: string) => void;
}

/** What a path is built from: another thread builds the same path from it (sim/jobs/). */
export interface PathSetup {
  snapshot: Snapshot;
  pathOptions: PathOptions;
}

/** What a path is made of (build.ts makes them from a snapshot). */
export interface PathStages {
  firewall: Firewall;
  /** protection's configuration (default: none, so protection inspects nothing) */
  atp?: AtpConfiguration;
  /** resolves the `$name` lists the rules use */
  lists?: (name: string) => IpSet | undefined;
  /** the lookups the path makes (undefined when the configuration reads no looked-up field) */
  enrichment?: Enrichment;
  /** things the user should know before reading the results */
  warnings?: string[];
  /** what the path was built from; null when it cannot be rebuilt from a snapshot (inspect's) */
  setup?: PathSetup | null;
  /** the firewall's compiled program, compiled with options of the caller's (default: compiled on first use) */
  program?: FastFirewall;
}

const NO_PROTECTION = new AtpConfiguration({}, parseAtpOptions());

export class CompiledPath {
  readonly firewall: Firewall;
  readonly atp: AtpConfiguration;
  readonly lists: (name: string) => IpSet | undefined;
  readonly enrichment: Enrichment | undefined;
  readonly warnings: string[];
  readonly setup: PathSetup | null;
  private compiled: FastFirewall | null | undefined;

  constructor(stages: PathStages) {
    this.firewall = stages.firewall;
    this.atp = stages.atp ?? NO_PROTECTION;
    this.lists = stages.lists ?? (() => undefined);
    this.enrichment = stages.enrichment;
    this.warnings = stages.warnings ?? [];
    this.setup = stages.setup ?? null;
    this.compiled = stages.program;
  }

  /** whether Advanced TCP Protection inspects packets on this path */
  get protects(): boolean {
    return this.atp.active;
  }

  /**
   * The firewall's compiled program, made on first use; null where the compiled lane does not apply:
   * protection scoped by data center or region reads an enrichment the compiled lane does not make.
   */
  get program(): FastFirewall | null {
    if (this.compiled === undefined) {
      this.compiled = this.atp.readsIngress ? null : FastFirewall.compile(this.firewall, { lists: this.lists, enrichment: this.enrichment });
    }
    return this.compiled;
  }
}
