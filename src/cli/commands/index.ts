// The subcommands, in the order `edgesim --help` lists them. Each folder holds command.ts (options and
// help, importing only commander and ../options.ts) and action.ts (the work, imported when the
// command runs), so `edgesim --help` loads neither the rule engine nor the capture code.
import type { Command } from 'commander';
import { register as validate } from './validate/command.js';
import { register as explain } from './explain/command.js';
import { register as fields } from './fields/command.js';
import { register as replay } from './replay/command.js';
import { register as report } from './report/command.js';
import { register as match } from './match/command.js';
import { register as inspect } from './inspect/command.js';
import { register as serve } from './serve/command.js';
import { register as exportSnapshot } from './export/command.js';
import { register as importSnapshot } from './import/command.js';
import { register as synth } from './synth/command.js';
import { register as diff } from './diff/command.js';
import { register as lint } from './lint/command.js';
import { register as test } from './test/command.js';
import { register as pin } from './pin/command.js';
import { register as trace } from './trace/command.js';
import { register as bench } from './bench/command.js';
import { register as lsp } from './lsp/command.js';
import { register as about } from './about/command.js';

export const commands: Array<(program: Command) => void> = [
  validate,
  explain,
  fields,
  replay,
  report,
  test,
  pin,
  trace,
  diff,
  lint,
  match,
  inspect,
  serve,
  exportSnapshot,
  importSnapshot,
  synth,
  bench,
  lsp,
  about,
];
