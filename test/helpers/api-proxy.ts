// A proxy in front of a running API, for the import tests: it forwards each request, or answers
// it with a 500 instead, or holds it until the test lets it go (a server made slow exactly where
// the test wants: a signal, or another client's writes, then land while that request is in flight).
// It logs every request it saw, in order.
import { createServer, type IncomingMessage } from 'node:http';

/** What the proxy does with one request: forward it (as it is, or to another path and query), or answer a 500. */
export type Decision = 'forward' | 'fail' | { url: string };

export interface SeenRequest {
  method: string;
  /** path and query, as the client sent them */
  url: string;
  /** its number among the writes (from 1), when it is one */
  write?: number;
}

/** A write: a request that is not a GET, nor a dry run (`?dry_run=true`, which the server checks and does not carry out). */
export function isWrite(method: string | undefined, url: string | undefined): boolean {
  return method !== 'GET' && !/[?&]dry_run=true(&|$)/.test(url ?? '');
}

export interface ApiProxy {
  /** the proxy's base URL, with the upstream's path (`…/client/v4`) */
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** A proxy to `upstream` that asks `decide` (which may wait) what to do with each request. */
export async function apiProxy(upstream: string, decide: (req: SeenRequest) => Decision | Promise<Decision> = () => 'forward'): Promise<ApiProxy> {
  const origin = new URL(upstream).origin;
  const seen: SeenRequest[] = [];
  let writes = 0;
  const read = (req: IncomingMessage): Promise<Buffer> => new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
  const server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const request: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/' };
      if (isWrite(req.method, req.url)) request.write = ++writes;
      seen.push(request);
      const decision = await decide(request);
      if (decision === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: null, success: false, errors: [{ code: 1501, message: 'injected failure' }], messages: [] }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
      const r = await fetch(`${origin}${typeof decision === 'object' ? decision.url : req.url}`, { method: req.method, headers, body: body.length > 0 ? new Uint8Array(body) : undefined });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await r.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${new URL(upstream).pathname}`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A gate: requests wait at it until it is opened; `arrived` resolves when the n-th waiting request comes. */
export class Gate {
  private opened = false;
  private readonly waiting: Array<() => void> = [];

  /** Waits until the gate is opened (at once if it is). */
  pass(): Promise<void> {
    return this.opened ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  open(): void {
    this.opened = true;
    for (const go of this.waiting.splice(0)) go();
  }
}
