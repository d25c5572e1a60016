// `serve`'s playground (/playground): one page and three calls. The page's editor asks for the same
// diagnostics and completion the language server gives (src/lsp: the engine's messages and hints,
// lint's findings of the expression as a rule, semantic tokens for highlighting); its packet form
// asks for the trace of a packet through the configuration an account holds on this server, stage by
// stage, as `edgesim trace` shows it, and whether the expression matches that packet. The page and
// its calls are open to every client (the API's own credentials check skips them); the account's
// configuration is read through the API itself, with the credentials the page was given, so the
// playground can read nothing its user could not.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { exportSnapshot } from '../config/api-client.js';
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { LIMITS } from '../config/resources.js';
import { lintText } from '../lsp/check/configuration.js';
import { documentProblems, linted } from '../lsp/check/diagnostics.js';
import { expressionDocument } from '../lsp/document.js';
import { completionsAt } from '../lsp/features/completion.js';
import { semanticTokens } from '../lsp/features/outline.js';
import { SuitePaths } from '../suite/case-path.js';
import { tracePackets } from '../suite/kinds/packet.js';
import { parsePacket } from '../suite/packet-spec.js';
import { parseSuiteText } from '../suite/source.js';
import type { PacketTrace } from '../suite/trace.js';
import { playgroundPage } from './page.js';

/** Where the playground lives on the server. */
export const PLAYGROUND_PATH = '/playground';

/** The longest expression the playground checks (the API's limit for filters, the longer of the two). */
const MAX_EXPRESSION = 8192;
const MAX_PACKET = 64 * 1024;

interface Account {
  account?: string;
  token?: string;
}

type Body = Record<string, unknown>;

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);

/** The configuration an account holds, read through the API with the page's credentials. */
async function configurationOf(apiUrl: string, { account, token }: Account): Promise<Snapshot> {
  if (account === undefined || account === '') throw new UserError('name the account whose configuration to use');
  return exportSnapshot({ url: apiUrl, account, token: token === undefined || token === '' ? 'playground' : token });
}

const listsOf = (snapshot: Snapshot | undefined) => (snapshot?.lists ?? []).map((l) => ({ name: l.name, kind: l.kind, items: l.items?.length ?? 0 }));

/** The diagnostics and tokens of one expression, as the language server gives them for a rule. */
async function check(expression: string, snapshot: Snapshot | undefined) {
  const model = expressionDocument(expression, 'rule', listsOf(snapshot));
  const config = { lists: snapshot?.lists ?? [], rulesets: [{ name: 'playground', kind: 'root', phase: 'magic_transit', rules: [{ ref: 'expression', action: 'block', expression }] }] };
  const outcome = await lintText({ text: JSON.stringify(config), file: 'playground', kind: 'snapshot' }, { maxRules: LIMITS.rulesPerRuleset });
  const problems = documentProblems(model, linted(model, outcome), true).map(({ start, end, severity, code, message }) => ({ start, end, severity, code, message }));
  return { problems, tokens: semanticTokens(model) };
}

/** A packet as the page's form gives it: a JSON object (a line of `edgesim inspect`), or `field=value` lines. */
function packetText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return trimmed;
  const lines = trimmed.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines
    .map((line) => {
      const eq = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
      if (eq === null) throw new UserError(`${JSON.stringify(line)}: expected field=value, e.g. tcp.dstport=22`);
      return `${JSON.stringify(eq[1])}: ${eq[2]}`;
    })
    .join('\n');
}

/** The trace of one packet through a configuration. */
async function traceOne(snapshot: Snapshot, text: string): Promise<PacketTrace> {
  const packet = parsePacket(parseSuiteText('packet', packetText(text) || '{}'));
  return tracePackets([packet], 0, await SuitePaths.open(snapshot, {}));
}

async function answer(reply: FastifyReply, work: () => Promise<object>): Promise<FastifyReply> {
  try {
    return reply.header('cache-control', 'no-store').send(await work());
  } catch (err) {
    if (err instanceof UserError) return reply.code(400).send({ error: err.message });
    throw err;
  }
}

/** Registers the page and its calls; `apiUrl` is the API's base URL on this server. */
export function registerPlayground(app: FastifyInstance, apiUrl: () => string): void {
  const page = { config: { page: true } };
  app.get(PLAYGROUND_PATH, page, async (_req, reply) => {
    const { html, policy } = playgroundPage();
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', policy).header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').send(html);
  });
  app.post(`${PLAYGROUND_PATH}/check`, page, async (req, reply) =>
    answer(reply, async () => {
      const body = (req.body ?? {}) as Body;
      const expression = str(body.expression, MAX_EXPRESSION);
      if (expression === undefined) throw new UserError(`expression: a string of at most ${MAX_EXPRESSION} characters`);
      const snapshot = typeof body.account === 'string' && body.account !== '' ? await configurationOf(apiUrl(), body as Account).catch(() => undefined) : undefined;
      return check(expression, snapshot);
    }),
  );
  app.post(`${PLAYGROUND_PATH}/complete`, page, async (req, reply) =>
    answer(reply, async () => {
      const body = (req.body ?? {}) as Body;
      const expression = str(body.expression, MAX_EXPRESSION);
      const offset = typeof body.offset === 'number' && Number.isInteger(body.offset) ? body.offset : -1;
      if (expression === undefined || offset < 0 || offset > expression.length) throw new UserError('expression and offset: the text and the caret\'s place in it');
      const snapshot = typeof body.account === 'string' && body.account !== '' ? await configurationOf(apiUrl(), body as Account).catch(() => undefined) : undefined;
      return { items: completionsAt(expressionDocument(expression, 'rule', listsOf(snapshot)), offset) };
    }),
  );
  app.post(`${PLAYGROUND_PATH}/trace`, page, async (req, reply) =>
    answer(reply, async () => {
      const body = (req.body ?? {}) as Body;
      const packet = str(body.packet, MAX_PACKET) ?? '';
      const expression = str(body.expression, MAX_EXPRESSION) ?? '';
      const snapshot = await configurationOf(apiUrl(), body as Account);
      const trace = await traceOne(snapshot, packet);
      // the expression as a log rule of its own, on the same packet: whether it matches
      let matches: boolean | null = null;
      if (expression.trim() !== '') {
        const alone: Snapshot = { lists: snapshot.lists, rulesets: [{ name: 'playground', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'expression', action: 'log', expression, enabled: true }] }] };
        matches = await traceOne(alone, packet)
          .then((t) => t.steps.find((s) => s.step_name === 'firewall')?.trace?.[0]?.matched ?? null)
          .catch(() => null);
      }
      return { trace, expression: { matches } };
    }),
  );
}
