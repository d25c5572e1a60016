// The `edgesim` command. Each subcommand lives in its own file under commands/ and registers itself
// on the program; this file only wires them together and is the one place where errors become
// exit codes: a CliError (or any error carrying a numeric `exitCode`) prints its message, anything else
// prints a one-line internal error, never a stack trace unless EDGESIM_DEBUG is set.
import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';
import { VERSION, aboutText } from './about.js';

export function buildProgram(): Command {
  const program = new Command('edgesim')
    .description('Replay captures through network-firewall rulesets and Advanced TCP Protection, and see what passes, what drops, and why.')
    .version(VERSION, '-V, --version')
    .addHelpText('after', `\n${aboutText()}`)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI with a full argv (node, script, ...args); resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // commander has already printed help, the version or its own usage error; usage errors exit 2
    return err.exitCode === 0 ? 0 : 2;
  }
  const e = err as { code?: string; message?: string; stack?: string; exitCode?: unknown };
  if (e && e.code === 'EPIPE') return 0;
  if (e && typeof e.exitCode === 'number' && typeof e.message === 'string') {
    process.stderr.write(`edgesim: ${e.message}\n`);
    return e.exitCode;
  }
  process.stderr.write(`edgesim: internal error: ${e?.message ?? String(err)}\n`);
  if (process.env.EDGESIM_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
  return 70;
}
