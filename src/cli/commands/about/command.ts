// `edgesim about`: the version and the attributions of bundled data.
import type { Command } from 'commander';
import { VERSION, aboutText } from '../../about.js';

export function register(program: Command): void {
  program
    .command('about')
    .description('show the version and the attributions of bundled data')
    .action(() => {
      process.stdout.write(`edgesim ${VERSION}\n\n${aboutText()}\n`);
    });
}
