import type { Command } from 'commander';
import { readCapture } from '../../capture/reader.js';
import { recordBinding } from '../../capture/fields.js';
import type { PacketRecord } from '../../capture/record.js';
import { createListRegistry } from '../../data/lists.js';
import { compile, fieldsUsed, FilterError, FIREWALL_SCHEME, parse } from '../../lang/index.js';
import { enrichmentFor } from '../../sim/build.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import { CliError } from '../errors.js';
import { addConfigOptions, addDataOptions, asCliError, dataOptions, loadConfiguration, type ConfigFlags, type DataFlags } from '../config-options.js';

interface MatchFlags extends ConfigFlags, DataFlags {
  count?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('match')
    .description('print the frame numbers of the packets a Rules-language expression matches, one a line')
    .argument('<capture>', 'the capture file')
    .argument('<expression>', 'a firewall-phase Rules-language expression')
    .option('--count', 'print only how many packets matched');
  addConfigOptions(cmd);
  addDataOptions(cmd);
  cmd.addHelpText('after', `\nAccount lists ($name) come from --config or --api; managed lists ($svc.*) from the bundled samples or --lists.\n\nExample:\n  edgesim match examples/demo.pcap 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport == 80' --count`);
  cmd.action(async (capture: string, expression: string, flags: MatchFlags) => {
    const snapshot = await loadConfiguration(flags, false);
    const lists = createListRegistry({ dir: flags.lists, accountLists: snapshot.lists });
    let predicate: (p: PacketRecord) => boolean;
    let fields: Set<string>;
    try {
      const ast = parse(expression, FIREWALL_SCHEME);
      fields = new Set(fieldsUsed(ast));
      predicate = compile(ast, recordBinding, { lists: (name) => lists.resolve(name) });
    } catch (err) {
      if (err instanceof FilterError) throw new CliError(`invalid expression:\n${err.message.trimEnd()}`);
      throw err;
    }
    const warnings: string[] = [];
    const enrichment = await enrichmentFor(fields, false, dataOptions(flags), warnings);
    for (const w of warnings) process.stderr.write(`edgesim: warning: ${w}\n`);
    const out = new TextSink();
    let count = 0;
    try {
      await readCapture(capture, (rec) => {
        if (enrichment !== undefined) enrichment.enrich(rec);
        if (!predicate(rec)) return;
        count++;
        if (!flags.count) out.write(`${rec.frame}\n`);
      });
    } catch (err) {
      throw asCliError(err, flags);
    } finally {
      if (flags.count) out.write(`${count}\n`);
      out.close();
    }
  });
}
