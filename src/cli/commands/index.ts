// The subcommands, in the order `edgesim --help` lists them. Each module exports `register`, which
// defines the command's options and help; heavy dependencies (the HTTP framework, the Rules-language
// engine, the replay) are imported inside the action, so `edgesim --help` and each command start fast.
import type { Command } from 'commander';
import { register as about } from './about.js';
import { register as validate } from './validate.js';
import { register as explain } from './explain.js';
import { register as replay } from './replay.js';
import { register as match } from './match.js';
import { register as inspect } from './inspect.js';
import { register as serve } from './serve.js';
import { register as exportSnapshot } from './export.js';
import { register as importSnapshot } from './import.js';
import { register as synth } from './synth.js';

export const commands: Array<(program: Command) => void> = [
  validate,
  explain,
  replay,
  match,
  inspect,
  serve,
  exportSnapshot,
  importSnapshot,
  synth,
  about,
];
