// `edgesim match`, run: compile the expression over the packet record and print matching frames.
import { compileRecordExpression } from '../../capture/fields.js';
import { readCapture } from '../../capture/reader.js';
import type { PacketRecord } from '../../capture/record.js';
import { createListRegistry } from '../../data/lists.js';
import { FilterError } from '../../lang/index.js';
import { enrichmentFor } from '../../sim/build.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import type { MatchFlags } from '../commands/match.js';
import { CliError } from '../errors.js';
import { asCliError, dataOptions, loadConfiguration, printWarnings } from './configuration.js';

export async function runMatch(capture: string, expression: string, flags: MatchFlags): Promise<void> {
  const snapshot = await loadConfiguration(flags, false);
  const lists = createListRegistry({ dir: flags.lists, accountLists: snapshot.lists });
  let predicate: (p: PacketRecord) => boolean;
  let fields: Set<string>;
  try {
    const compiled = compileRecordExpression('rule', expression, (name) => lists.resolve(name));
    predicate = compiled.predicate;
    fields = new Set(compiled.fields);
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
    const info = await readCapture(capture, (rec) => {
      if (enrichment !== undefined) enrichment.enrich(rec);
      if (!predicate(rec)) return;
      count++;
      if (!flags.count) out.write(`${rec.frame}\n`);
    });
    if (flags.count) out.write(`${count}\n`);
    printWarnings(capture, info.warnings);
  } catch (err) {
    throw asCliError(err, flags);
  } finally {
    out.close();
  }
}
