/**
 * An error meant for the person at the terminal: its message is printed as `edgesim: <message>`
 * and the process exits with `exitCode` (1: the input was wrong or the check failed; 2: usage).
 * Throw it from any command for bad files, bad flags or unreachable APIs.
 */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'CliError';
  }
}
