// Work on a whole 100,000-item list (checking an upload, writing it to the log) is done a chunk at a
// time, with the event loop free in between, so one big request does not make every other account
// wait for it.

/** Items handled between two yields. */
export const CHUNK = 5_000;

/** Lets every pending request run before the caller goes on. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
