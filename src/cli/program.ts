// The `edgesim` program: wires the subcommands it is given together, and is the one place where
// errors become a line on stderr and an exit code:
//   - a UserError (a bad file, flag, configuration item, expression, an unreachable API) prints
//     `edgesim: <source>: <message>` and exits with its code (1, or 2 for usage);
//   - commander's own usage errors print themselves the same way (`edgesim: unknown option ...`) and
//     exit 2; help and version exit 0; a command whose exit 1 means "a difference" or "a finding"
//     (diff, lint) has its errors exit 2 (see errorsExitWith);
//   - a closed pipe (`edgesim ... | head`) ends quietly with 0;
//   - standard output that cannot be written (`> /dev/full`), whoever wrote to it (a command, help,
//     the version), is an OutputError for `standard output`: one line, and the error's exit code;
//   - anything else is a bug: `edgesim: internal error: ...` and exit 70 (the stack only with EDGESIM_DEBUG).
import { Command, CommanderError } from 'commander';
import { OutputError, UserError } from '../errors.js';
import { printable } from '../terminal-text.js';
import { VERSION, aboutText } from './about.js';
import { errorExitOf, readAsArgument } from './options.js';
import { guardStandardStreams } from './standard-streams.js';

/** a command's registration: its options, help and lazily loaded action (commands/<name>/command.ts) */
export type Register = (program: Command) => void;

/** The `edgesim` program with these commands (main.ts: all of them; the replay's start-up snapshot: replay alone). */
export function buildProgramOf(commands: readonly Register[]): Command {
  const program = new Command('edgesim')
    .description('Replay captures through network-firewall rulesets and Advanced TCP Protection, and see what passes, what drops, and why.')
    .version(VERSION, '-V, --version')
    .addHelpText('after', `\n${aboutText()}`)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`edgesim: ${printable(text.replace(/^error: /, '').replace(/\n$/, ''))}\n`) })
    .exitOverride();
  for (const register of commands) register(program);
  program.hook('preAction', async (_program, command) => {
    running = command;
    // no output may replace an input or another output: checked before the action runs (paths.ts)
    const { claimCommandFiles } = await import('./paths.js');
    claimCommandFiles(command);
  });
  return program;
}

/** the subcommand whose action runs */
let running: Command | undefined;

/**
 * Runs the CLI with a full argv (node, script, ...args); resolves to the process exit code. `program`:
 * one buildProgramOf() made that has parsed nothing yet (the start-up snapshot's, made when it was built).
 */
export async function runProgram(argv: string[], program: Command): Promise<number> {
  guardStandardStreams();
  watchStandardStreams();
  try {
    await program.parseAsync(readAsArgument(program, argv));
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    return reportError(err);
  }
}

/**
 * Writes to standard output and error fail as events, after the write that caused them: a full disk
 * behind standard output ends the command as any output that cannot be written; a closed pipe ends
 * it quietly; standard error that cannot be written leaves nowhere to say so.
 */
function watchStandardStreams(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    process.exit(err.code === 'EPIPE' ? 0 : reportError(new OutputError('standard output', err)));
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 1));
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  if (err instanceof UserError) {
    // the source is a file name, a flag or a URL as given: one line of it, escaped (terminal-text.ts)
    process.stderr.write(`edgesim: ${err.source === undefined || err.source === '' ? '' : `${printable(err.source)}: `}${err.detail}\n`);
    return err.exitCode === 1 ? (errorExitOf(running) ?? 1) : err.exitCode;
  }
  const e = err as { code?: string; message?: string; stack?: string } | undefined;
  if (e?.code === 'EPIPE') return 0;
  process.stderr.write(`edgesim: internal error: ${e?.message ?? String(err)}\n`);
  if (process.env.EDGESIM_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
  return 70;
}
