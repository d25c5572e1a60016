// `edgesim report SUMMARY.json`: options and help; the rendering is in action.ts, loaded when run.
import type { Command } from 'commander';
import type { ReportFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('report')
    .description('render a saved replay summary (replay --format json) as one self-contained HTML page of charts and tables')
    .argument('<summary>', 'the summary file ("-" reads standard input)')
    .option('-o, --out <file>', 'write the page here (needed unless standard output is redirected)')
    .addHelpText(
      'after',
      `
The page needs no network: the charting library and the data are inside it. It shows verdicts over
time, ATP rates against thresholds with mitigation periods, drops by rule and by reason, the top
sources and destinations among drops, every rule's hits (never-hit rules marked), lint findings when
the summary carries them, and the score against the capture's labels when it has some.

Examples:
  edgesim replay examples/demo.pcap --config examples/demo-snapshot.json --format json --out demo.json
  edgesim report demo.json --out demo.html
  edgesim replay big.pcap --config snap.json --format json | edgesim report - > big.html`,
    )
    .action(async (summary: string, flags: ReportFlags) => (await import('./action.js')).run(summary, flags));
}
