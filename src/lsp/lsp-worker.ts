// The language server's analysis thread: lint of a whole configuration, what the analysis proves of
// one rule (a hover), and a capture's traffic through the rules (on save), each asked by message
// (worker-client.ts) and answered by message, so that the thread answering the editor never
// waits for them and a stale lint can be stopped by ending the thread.
import { parentPort } from 'node:worker_threads';
import { describeRule, lintText } from './check/configuration.js';
import { trafficOf } from './check/traffic.js';
import type { WorkerReply, WorkerRequest } from './worker-client.js';

async function answer(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'lint':
      return lintText(request.input, request.settings);
    case 'describe':
      return describeRule(request.input, request.settings, request.path);
    case 'traffic':
      return trafficOf(request.input, request.settings, request.captures);
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  answer(request).then(
    (result) => parentPort!.postMessage({ id: request.id, result } satisfies WorkerReply),
    (err: unknown) => parentPort!.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply),
  );
});
