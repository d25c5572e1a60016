// The mock configuration API: a fastify server with the routes of the interface spec and the
// vendor operations around them, under `/client/v4`. This file wires the pieces and holds the one
// place where failures become responses: whatever a handler, the body parser or the validator
// throws ends in the error handler, which answers with the envelope and the condition's status.
//
// Bodies: only JSON is accepted (415 otherwise), up to `bodyLimit` bytes (413). Each route
// declares its body as a JSON Schema from src/config/resources.ts, and the validator compiler runs
// the project's own validator on it, so the API and the snapshot loader report the same problems
// in the same words. An unknown path is a 404; a known path with the wrong method is a 405.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { VOCABULARY } from '../config/checks.js';
import { parseJson } from '../config/json.js';
import { LIMITS } from '../config/resources.js';
import { parseWithSchema, type JsonSchema } from '../config/schema.js';
import { authenticate } from './auth.js';
import type { Access, CredentialTable } from './credentials.js';
import { failure } from './envelope.js';
import { ApiError, type Condition } from './errors.js';
import { registerAtpRoutes } from './routes/atp.js';
import { registerListRoutes } from './routes/lists.js';
import { registerRulesetRoutes } from './routes/rulesets.js';
import { registerValidateExprRoutes } from './routes/validate-expr.js';
import { AccountStore } from './store.js';

/** Where the API lives on the server. */
export const BASE_PATH = '/client/v4';

/** Options of the mock API server. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  /** Directory for the accounts' state files; absent = keep everything in memory. */
  data?: string;
  /** Who may read and write which account; absent = open mode (any well-formed credentials). */
  credentials?: CredentialTable;
  /** Rules per ruleset. Default: the vendor's default maximum, 200. */
  maxRules?: number;
  /** Largest accepted request body in bytes. Default 16 MiB (a full 100,000-item list fits). */
  bodyLimit?: number;
  /**
   * Pages served beside the API (`serve`'s playground), registered on the server: routes whose
   * config says `page: true` are open to every client, and read an account only through the API,
   * with the client's own credentials.
   */
  pages?: (app: FastifyInstance) => void;
}

/** A listening server. */
export interface RunningServer {
  /** The base URL, e.g. `http://127.0.0.1:8787/client/v4`. */
  url: string;
  /** Stops accepting requests, waits for pending writes, closes. */
  close(): Promise<void>;
}

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;
/** fastify's default maxParamLength: a longer path parameter is a 414 */
const MAX_SEGMENT = 100;

/** Fastify's own failures (by HTTP status) and the condition each is reported as. */
const FRAMEWORK_CONDITIONS: Record<number, Condition> = {
  400: 'invalid_json',
  404: 'route_not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

function frameworkError(err: FastifyError, bodyLimit: number, contentType: string | undefined): ApiError {
  const condition = err.statusCode !== undefined ? FRAMEWORK_CONDITIONS[err.statusCode] : undefined;
  if (condition === 'payload_too_large') return new ApiError(condition, `the request body is larger than ${bodyLimit} bytes`);
  if (condition === 'unsupported_media_type') {
    return new ApiError(condition, `the request body must be JSON (Content-Type: application/json), not ${contentType ?? 'unlabelled'}`);
  }
  if (condition) return new ApiError(condition, err.message);
  return new ApiError('internal', 'internal error');
}

function urlError(err: FastifyError): ApiError {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return new ApiError('uri_too_long', `a part of the URL path is longer than ${MAX_SEGMENT} characters`);
  return new ApiError('invalid_url', 'the URL path is not valid: a %-escape is malformed or not UTF-8');
}

function buildApp(options: ServerOptions, store: AccountStore): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const access = (method: string): Access => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
  const answer = (reply: FastifyReply, api: ApiError): FastifyReply => reply.code(api.status).headers(api.headers).send(failure(api.items));
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_SEGMENT },
    // a URL the router cannot take apart (a bad %-escape, a segment over 100 characters): the
    // credentials are still checked first (no account is known yet), and the answer is an envelope
    frameworkErrors: (err, req, reply) => {
      try {
        authenticate(req.headers, options.credentials, undefined, access(req.method));
        throw urlError(err);
      } catch (e) {
        return answer(reply, e instanceof ApiError ? e : new ApiError('internal', 'internal error'));
      }
    },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, parseJson(body as string));
    } catch (err) {
      done(new ApiError('invalid_json', `request body: ${(err as Error).message}`), undefined);
    }
  });
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    if (data === null || data === undefined) return { error: new ApiError('missing_body', 'the request needs a JSON body') };
    const { value, issues, omitted } = parseWithSchema(schema as JsonSchema, data, VOCABULARY);
    return issues.length > 0 ? { error: ApiError.fromIssues(issues, omitted) } : { value };
  });

  app.addHook('onRequest', async (req) => {
    if ((req.routeOptions.config as { page?: boolean } | undefined)?.page === true) return;
    const account = (req.params as { account?: string } | undefined)?.account;
    authenticate(req.headers, options.credentials, account, access(req.method));
    if (account !== undefined && !ACCOUNT_ID.test(account)) {
      throw new ApiError('invalid_identifier', `account id ${JSON.stringify(account)}: use letters, digits, "-" and "_" (at most 64)`);
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const api = err instanceof ApiError ? err : frameworkError(err, bodyLimit, req.headers['content-type']);
    if (api.status >= 500 && !(err instanceof ApiError)) process.stderr.write(`edgesim serve: ${req.method} ${req.url}: ${err.stack ?? err.message}\n`);
    return answer(reply, api);
  });

  app.setNotFoundHandler(async (req) => {
    const url = req.url.split('?')[0];
    const allowed = METHODS.filter((method) => app.findRoute({ method, url }) !== null);
    if (allowed.length > 0) {
      throw new ApiError('method_not_allowed', `${req.method} is not allowed on ${url} (allowed: ${allowed.join(', ')})`, undefined, { allow: allowed.join(', ') });
    }
    throw new ApiError('route_not_found', `no route for ${req.method} ${url}`);
  });

  const ctx = { app, store, maxRules: options.maxRules ?? LIMITS.rulesPerRuleset };
  registerAtpRoutes(ctx, BASE_PATH);
  registerRulesetRoutes(ctx, BASE_PATH);
  registerListRoutes(ctx, BASE_PATH);
  registerValidateExprRoutes(ctx, BASE_PATH);
  options.pages?.(app);
  return app;
}

/** Starts the mock API; resolves once it is listening. */
export async function createServer(options: ServerOptions = {}): Promise<RunningServer> {
  const store = await AccountStore.open(options.data);
  const app = buildApp(options, store);
  try {
    await app.listen({ port: options.port ?? 8787, host: options.host ?? '127.0.0.1' });
  } catch (err) {
    await store.close();
    throw err;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${BASE_PATH}`,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
