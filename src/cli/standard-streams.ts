// Every line edgesim prints on standard output and standard error passes through one LineGuard per
// stream (terminal-text.ts), whoever writes it: a command's results, warnings, errors, commander's
// help and usage errors, a library's message. Text from inputs (a rule ref, a file name, an
// expression a parse error echoes) then never reaches a terminal as a control character, nor a CI
// runner as a workflow command. Binary writes (a pcap to standard output) pass as they are; the
// sinks that write to the file descriptor itself (sim/outputs/text-sink.ts) keep a guard of their own.
import { LineGuard } from '../terminal-text.js';

let guarded = false;

/** Puts a LineGuard in front of process.stdout and process.stderr (once per process). */
export function guardStandardStreams(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    const guard = new LineGuard();
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? guard.pass(chunk) : chunk, ...rest)) as typeof stream.write;
  }
}
