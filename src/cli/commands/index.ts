// The subcommands, in the order `edgesim --help` lists them. Each module exports `register`.
import type { Command } from 'commander';
import { register as about } from './about.js';

export const commands: Array<(program: Command) => void> = [
  about,
];
