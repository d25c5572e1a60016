// The editor's side of the analysis thread (lsp-worker.ts): requests by message, answered by promise.
// A request can be cancelled only by ending the thread (the analysis does not stop half-way), which
// is what a lint made stale by typing needs: cancel() ends the thread and rejects what it was doing,
// and the next request starts a fresh one. Under the tests the worker is the TypeScript source, loaded
// after registering tsx in the thread (as the replay's range workers are); built, lsp-worker.js beside
// the module holding this code (dist/lsp/, or dist/bundle/ where the bundler puts both).
import { Worker } from 'node:worker_threads';
import type { JsonPath } from '../config/schema.js';
import type { ConfigurationText, LintSettings } from './check/configuration.js';

export type WorkerRequest = { id: number; input: ConfigurationText; settings: LintSettings } & (
  | { op: 'lint' }
  | { op: 'describe'; path: JsonPath }
  | { op: 'traffic'; captures: string[] }
);

export type WorkerReply = { id: number; result?: unknown; error?: string };

/** A request ended by cancel(), not by a failure. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** A request without its id (each kind of request keeps its own fields). */
type Ask = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export class AnalysisWorker {
  private worker: Worker | undefined;
  private next = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private start(): Worker {
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./lsp-worker.ts', import.meta.url).href)}); })`, { eval: true })
      : new Worker(new URL('./lsp-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      if (p === undefined) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) p.reject(new Error(reply.error));
      else p.resolve(reply.result);
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the analysis thread stopped (exit code ${code})`)));
    return worker;
  }

  /** Asks the thread (started if need be). */
  ask<T>(request: Ask): Promise<T> {
    this.worker ??= this.start();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker!.postMessage({ ...request, id });
    });
  }

  /** Whether a request is being answered. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Ends the thread: what it was doing is rejected with Cancelled. */
  cancel(): void {
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Cancelled());
    this.pending.clear();
    void worker?.terminate();
  }
}

