// `edgesim pin`: the configuration's behaviour today written as a suite (src/suite/pin/), to a file
// or standard output; the configuration is read as every command reads it (several --config files
// merged by resource, any format, --account for a Terraform file of several accounts), and the
// suite names the same files. With --capture, the capture case's golden file is written by running
// the new suite once with --update. No file the command reads is written over.
import path from 'node:path';
import { createListRegistry } from '../../../data/lists.js';
import { UsageError, attachSource } from '../../../errors.js';
import { SuitePaths } from '../../../suite/case-path.js';
import { loadSuite } from '../../../suite/load.js';
import { MAX_CASES_PER_RULE } from '../../../analysis/index.js';
import { pinnedCases } from '../../../suite/pin/pin-suite.js';
import { suiteText, type WrittenCase } from '../../../suite/pin/suite-text.js';
import { runSuites } from '../../../suite/run.js';
import { counted } from '../../../numbers.js';
import { loadConfiguration, sampleListSaid } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';
import { writeOutput } from '../../output.js';
import { writes } from '../../paths.js';

export interface PinFlags extends Pick<ConfigFlags, 'config' | 'configFormat' | 'account'> {
  out?: string;
  capture?: string;
}

/** `name` as the suite at `out` names it: relative to its folder (to the current folder on stdout). */
function fromSuite(out: string | undefined, name: string): string {
  const dir = out === undefined ? process.cwd() : path.dirname(path.resolve(out));
  return path.relative(dir, path.resolve(name)).split(path.sep).join('/');
}

function goldenOf(out: string): string {
  return path.join(path.dirname(out), `${path.basename(out).replace(/\.(ya?ml|json)$/i, '')}.golden.ndjson`);
}

export async function run(argument: string | undefined, flags: PinFlags): Promise<void> {
  const configs = [...(argument === undefined ? [] : [argument]), ...(flags.config ?? [])];
  if (configs.length === 0) throw new UsageError('no configuration: give the configuration file (edgesim pin CONFIG --out SUITE.yaml; repeat --config to merge files)');
  if (configs.includes('-')) throw new UsageError('pin reads its configuration from files, which the suite names: not from standard input');
  const out = flags.out === '-' ? undefined : flags.out;
  if (flags.capture !== undefined && out === undefined) throw new UsageError('--capture needs --out FILE: its golden file is written beside the suite');
  const golden = flags.capture === undefined || out === undefined ? undefined : goldenOf(out);
  // the configuration, the capture and --out are checked before the action (paths.ts); the golden file beside --out, here
  writes('the golden file', golden);
  const { snapshot, source } = await loadConfiguration({ config: configs, configFormat: flags.configFormat, account: flags.account });
  let pinned;
  try {
    const paths = await SuitePaths.open(snapshot, {});
    const registry = createListRegistry({ accountLists: snapshot.lists, onSample: sampleListSaid });
    pinned = pinnedCases(snapshot, paths, { lists: (name) => registry.resolve(name) });
  } catch (err) {
    throw attachSource(err, source);
  }
  const cases: WrittenCase[] = [...pinned.cases];
  if (flags.capture !== undefined && golden !== undefined) {
    cases.push({ name: `the capture ${path.basename(flags.capture)}`, body: [['capture', fromSuite(out, flags.capture)]], expect: { golden: path.basename(golden) } });
  }
  const header = [
    `Pinned by \`edgesim pin\` from ${configs.map((c) => path.basename(c)).join(' and ')}: what the configuration does today.`,
    'Run it with `edgesim test` (it passes as written); a failing case after a change shows what changed.',
    'Fields a packet does not give take the defaults of a typical packet: see `edgesim test --help`.',
  ].join('\n');
  const footer = [
    ...(pinned.unpinned.length === 0 ? [] : ['Rules and ATP filters without a packet case, and why:', ...pinned.unpinned.map((u) => `  ${u}`)]),
    ...(pinned.omitted.length === 0 ? [] : [`Left out by the bounds on a pinned suite (at most ${MAX_CASES_PER_RULE} cases a rule) and on the analysis' work:`, ...pinned.omitted.map((u) => `  ${u}`)]),
  ].join('\n');
  const named = configs.map((c) => fromSuite(out, c));
  writeOutput(out, suiteText(header, named.length === 1 ? named[0]! : named, cases, footer));
  if (out !== undefined && flags.capture !== undefined) {
    const suite = await loadSuite(out);
    await runSuites([{ ...suite, cases: suite.cases.filter((c) => c.kind.key === 'capture') }], { update: true });
  }
  if (out !== undefined) {
    process.stderr.write(`edgesim: pinned ${counted(cases.length, 'case')} to ${out}${pinned.unpinned.length === 0 ? '' : `; ${counted(pinned.unpinned.length, 'rule or filter', 'rules or filters')} without a witness packet (listed at its end)`}\n`);
  }
}
