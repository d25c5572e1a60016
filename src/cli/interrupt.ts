// Ctrl-C (SIGINT) or SIGTERM during a long read (a replay of an endless standard input): as tcpdump
// and tshark do, the read stops, the outputs are finished and the summary of what was read is
// printed. The command then exits 128 + the signal's number (130, 143), as a process the signal had
// killed would, so a script can tell an interrupted replay from a finished one. A second signal
// while the outputs are finished kills the process at once.
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export class Interrupts {
  private readonly controller = new AbortController();
  private readonly onSignal = (name: NodeJS.Signals): void => {
    if (!this.controller.signal.aborted) {
      this.controller.abort(name);
      return;
    }
    this.atOnce?.(name);
    this.end();
    process.kill(process.pid, name);
  };

  /** Catches SIGINT and SIGTERM until end(); `atOnce` says what a second signal, which ends the process at once, leaves behind. */
  constructor(private readonly atOnce?: (signal: NodeJS.Signals) => void) {
    for (const name of SIGNALS) process.on(name, this.onSignal);
  }

  /** aborted, with the signal's name as its reason, at the first signal */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Leaves the signals to their default again; returns the exit code the command should end with (128 + the signal's number), if one came. */
  end(): number | undefined {
    for (const name of SIGNALS) process.off(name, this.onSignal);
    const reason: unknown = this.controller.signal.reason;
    return this.controller.signal.aborted ? 128 + constants.signals[reason as NodeJS.Signals] : undefined;
  }
}
