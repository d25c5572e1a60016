// The `edgesim` command: every subcommand (commands/index.ts) wired together by program.ts, which is
// the one place where errors become a line on stderr and an exit code (see there). The bundle's entry
// (bin/edgesim.js imports it) and the start-up snapshot's (snapshot/snapshot-entry.ts).
import type { Command } from 'commander';
import { commands } from './commands/index.js';
import { buildProgramOf, runProgram } from './program.js';

export function buildProgram(): Command {
  return buildProgramOf(commands);
}

/**
 * Runs the CLI with a full argv (node, script, ...args); resolves to the process exit code. `program`:
 * one buildProgram() made that has parsed nothing yet (the start-up snapshot's, made when it was built).
 */
export async function main(argv: string[], program: Command = buildProgram()): Promise<number> {
  return runProgram(argv, program);
}
