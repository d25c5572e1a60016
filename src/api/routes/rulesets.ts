// The HTTP routes of rulesets (how a ruleset changes from version to version is
// ruleset-versions.ts). Rulesets of the network-firewall phase: create, list, get, replace (PUT), delete (204, empty
// body), the phase entry point (GET/PUT `…/rulesets/phases/{phase}/entrypoint`, `edge_transit` or
// the vendor's `magic_transit`), single-rule add/patch/delete with `position`, and versions. Rule
// changes answer with the complete ruleset, as the vendor's do. Phases are stored in the canonical
// spelling (`edge_transit`) and answered in the one the request used (its path's phase, else its
// body's), else the one the ruleset was last written with. The list omits rules and pages by cursor.
// A rule with `logging` whose action is not `skip` is refused with the vendor's error 20018.
// Every write takes `?dry_run=true`, as the vendor's since 2026-09-17 (routes/common.ts): the same
// credentials and validation, nothing kept, `result: null` (a 204 stays a 204); another value is a 400.
import type { FastifyRequest } from 'fastify';
import { CONFLICTS, findConflicts, loggingIssues, VOCABULARY } from '../../config/checks.js';
import { unknownListIssues } from '../../config/references.js';
import { createSchema, patchSchema, PHASE_SPELLINGS, RULESET, RULESET_RULE, storedSchema } from '../../config/resources.js';
import { parseWithSchema, type JsonSchema } from '../../config/schema.js';
import type { Ruleset, RulesetRule } from '../../config/snapshot.js';
import { ok } from '../envelope.js';
import { ApiError } from '../errors.js';
import { hexId, timestamp } from '../ids.js';
import { cursorPage } from '../pagination.js';
import {
  commitVersion, nextVersion, placeRule, presentRuleset, rulesetAt, settleRules, versionSummaries, type Position,
} from '../ruleset-versions.js';
import type { AccountState, StoredRuleset } from '../state.js';
import { accountOf, bodyOf, findById, param, queryOf, takeDryRun, withBody, writeOrCheck, type Obj, type RouteContext } from './common.js';

const DEFAULT_RULESETS_PER_PAGE = 20;
const MAX_RULESETS_PER_PAGE = 100;

/** The phase each request's body spelt, read before validation maps an alias to the canonical spelling. */
const bodyPhases = new WeakMap<FastifyRequest, string>();

async function rememberBodyPhase(req: FastifyRequest): Promise<void> {
  const phase = typeof req.body === 'object' && req.body !== null ? (req.body as Obj).phase : undefined;
  if (typeof phase === 'string' && PHASE_SPELLINGS.includes(phase)) bodyPhases.set(req, phase);
}

/** The phase as the request spelt it (in its path, else in its body), if it named one. */
function spellingOf(req: FastifyRequest): string | undefined {
  const inPath = (req.params as Record<string, string | undefined>).phase;
  return inPath !== undefined && PHASE_SPELLINGS.includes(inPath) ? inPath : bodyPhases.get(req);
}

/** A ruleset the request wrote, as the answer: the spelling the request used is remembered for later reads. */
function written(req: FastifyRequest, rs: StoredRuleset): Ruleset {
  const spelling = spellingOf(req);
  if (spelling !== undefined) rs.phase_spelling = spelling;
  return presentRuleset(rs);
}

const POSITION: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { before: { type: 'string' }, after: { type: 'string' }, index: { type: 'integer', minimum: 1 } },
};

function withPosition(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { ...schema.properties, position: POSITION } };
}

/** A ruleset body schema whose `rules` hold at most `maxRules` (refused before any rule is compiled). */
function withMaxRules(schema: JsonSchema, maxRules: number): JsonSchema {
  const properties = schema.properties ?? {};
  return { ...schema, properties: { ...properties, rules: { ...properties.rules, maxItems: maxRules } } };
}

const PHASE_SCHEMA = RULESET.fields.phase.schema;

function canonicalPhase(text: string): string {
  const { value, issues } = parseWithSchema(PHASE_SCHEMA, text, VOCABULARY, ['phase']);
  if (issues.length > 0) throw new ApiError('not_found', `no such phase: ${issues[0].message}`);
  return value as string;
}

function entryPoint(state: AccountState, phase: string): StoredRuleset | undefined {
  return state.rulesets.find((r) => r.kind === 'root' && r.phase === phase);
}

function requireEntryPoint(state: AccountState, phaseText: string): StoredRuleset {
  const phase = canonicalPhase(phaseText);
  const rs = entryPoint(state, phase);
  if (!rs) throw new ApiError('not_found', `phase ${phase} has no entry point ruleset`);
  return rs;
}

function checkRules(state: AccountState, rules: RulesetRule[]): void {
  const at = (i: number) => ['rules', i];
  const issues = [...findConflicts(CONFLICTS.ruleId, rules as unknown as Obj[], at), ...findConflicts(CONFLICTS.ruleRef, rules as unknown as Obj[], at)];
  if (issues.length > 0) throw ApiError.fromIssues(issues);
  const unknown = unknownListIssues(rules, new Set(state.lists.map((l) => l.name)), ['rules']);
  if (unknown.length > 0) throw ApiError.fromIssues(unknown);
  const logging = loggingIssues(rules, ['rules']);
  if (logging.length > 0) throw ApiError.fromIssues(logging, 0, 'logging_not_allowed');
}

function create(state: AccountState, body: Ruleset): StoredRuleset {
  const conflicts = findConflicts(CONFLICTS.rootRuleset, [body as unknown as Obj], () => [], state.rulesets as unknown as Obj[], (r) => `ruleset ${String(r.id)}`);
  if (conflicts.length > 0) throw ApiError.fromIssues(conflicts);
  const now = timestamp();
  const rules = settleRules(body.rules ?? [], [], '1', now);
  checkRules(state, rules);
  const rs: StoredRuleset = {
    id: hexId(), name: body.name, description: body.description, kind: body.kind, version: '1', last_updated: now, phase: body.phase, rules, history: [],
  };
  if (rs.description === undefined) delete rs.description;
  state.rulesets.push(rs);
  return rs;
}

/** PUT: replaces the rules (and the description when sent); name, kind and phase cannot change. */
function replace(state: AccountState, rs: StoredRuleset, body: Partial<Ruleset>): void {
  for (const key of ['name', 'kind', 'phase'] as const) {
    if (body[key] !== undefined && body[key] !== rs[key]) {
      throw new ApiError('invalid_value', `${key}: cannot be changed (is ${JSON.stringify(rs[key])}, got ${JSON.stringify(body[key])})`, `/${key}`);
    }
  }
  const version = nextVersion(rs);
  const now = timestamp();
  const rules = settleRules(body.rules ?? [], rs.rules, version, now);
  checkRules(state, rules);
  commitVersion(rs, { description: body.description, rules }, version, now);
}

function addRule(state: AccountState, rs: StoredRuleset, body: RulesetRule & { position?: Position }, maxRules: number): void {
  const { position, ...rule } = body;
  if (rule.id !== undefined) throw new ApiError('invalid_value', 'id: is assigned by the server', '/id');
  if (rs.rules.length >= maxRules) {
    throw new ApiError('limit_exceeded', `a ruleset holds at most ${maxRules} rules`);
  }
  const version = nextVersion(rs);
  const now = timestamp();
  const [settled] = settleRules([rule], [], version, now);
  const rules = placeRule(rs.rules, settled, position);
  checkRules(state, rules);
  commitVersion(rs, { rules }, version, now);
}

function patchRule(state: AccountState, rs: StoredRuleset, ruleId: string, body: Partial<RulesetRule> & { position?: Position }): void {
  const old = findById(rs.rules, ruleId, 'rule');
  const { position, ...changes } = body;
  const merged: Obj = { ...old, ...changes };
  if (changes.action !== undefined && changes.action !== old.action) {
    if (changes.action_parameters === undefined) delete merged.action_parameters;
    if (changes.logging === undefined) delete merged.logging;
  }
  const { value, issues } = parseWithSchema(storedSchema(RULESET_RULE), merged, VOCABULARY);
  if (issues.length > 0) throw ApiError.fromIssues(issues);
  const version = nextVersion(rs);
  const now = timestamp();
  const [settled] = settleRules([value as RulesetRule], rs.rules, version, now);
  const rules = placeRule(rs.rules.map((r) => (r.id === ruleId ? settled : r)), settled, position ?? { index: rs.rules.indexOf(old) + 1 });
  checkRules(state, rules);
  commitVersion(rs, { rules }, version, now);
}

function deleteRule(rs: StoredRuleset, ruleId: string): void {
  const old = findById(rs.rules, ruleId, 'rule');
  commitVersion(rs, { rules: rs.rules.filter((r) => r !== old) }, nextVersion(rs), timestamp());
}

function version(rs: StoredRuleset, v: string, phase?: string): Ruleset {
  const found = rulesetAt(rs, v, phase);
  if (!found) throw new ApiError('not_found', `ruleset ${rs.id} has no version ${JSON.stringify(v)}`);
  return found;
}

/** Registers the ruleset routes under `{prefix}/accounts/:account/rulesets`. */
export function registerRulesetRoutes({ app, store, maxRules }: RouteContext, prefix: string): void {
  const base = `${prefix}/accounts/:account/rulesets`;
  takeDryRun(app, base);
  type Request = FastifyRequest;
  const byId = <T>(req: Request, view: (rs: StoredRuleset) => T) =>
    store.read(accountOf(req), (state) => view(findById(state.rulesets, param(req, 'id'), 'ruleset')));
  const change = <B>(fn: (state: AccountState, rs: StoredRuleset, body: B, ruleId: string) => void) => async (req: Request) => {
    return ok(await writeOrCheck(store, req, (state) => {
      const rs = findById(state.rulesets, param(req, 'id'), 'ruleset');
      fn(state, rs, bodyOf<B>(req), param(req, 'rule'));
      return written(req, rs);
    }));
  };

  const rulesetBody = (schema: JsonSchema) => ({ ...withBody(withMaxRules(schema, maxRules)), preValidation: rememberBodyPhase });
  const createBody = rulesetBody(createSchema(RULESET));
  const replaceBody = rulesetBody(patchSchema(RULESET));
  app.post(base, createBody, async (req) => {
    return ok(await writeOrCheck(store, req, (state) => written(req, create(state, bodyOf<Ruleset>(req)))));
  });
  app.get(base, async (req) => {
    const query = queryOf(req);
    const { result, perPage, after } = await store.read(accountOf(req), (state) => {
      const page = cursorPage(state.rulesets, query, DEFAULT_RULESETS_PER_PAGE, MAX_RULESETS_PER_PAGE);
      return { ...page, result: page.result.map((rs) => {
        const { rules: _rules, ...summary } = presentRuleset(rs);
        return summary;
      }) };
    });
    return ok(result, after === undefined ? { count: result.length, per_page: perPage } : { count: result.length, cursor: after, per_page: perPage });
  });
  app.get(`${base}/:id`, async (req) => ok(await byId(req, (rs) => presentRuleset(rs))));
  app.put(`${base}/:id`, replaceBody, change<Partial<Ruleset>>((state, rs, body) => replace(state, rs, body)));
  app.delete(`${base}/:id`, async (req, reply) => {
    await writeOrCheck(store, req, (state) => {
      const rs = findById(state.rulesets, param(req, 'id'), 'ruleset');
      state.rulesets.splice(state.rulesets.indexOf(rs), 1);
    });
    return reply.code(204).send();
  });

  app.post(`${base}/:id/rules`, withBody(withPosition(createSchema(RULESET_RULE))), change<RulesetRule & { position?: Position }>((state, rs, body) => addRule(state, rs, body, maxRules)));
  app.patch(`${base}/:id/rules/:rule`, withBody(withPosition(patchSchema(RULESET_RULE))), change<Partial<RulesetRule> & { position?: Position }>((state, rs, body, rule) => patchRule(state, rs, rule, body)));
  app.delete(`${base}/:id/rules/:rule`, change<undefined>((_state, rs, _body, rule) => deleteRule(rs, rule)));

  app.get(`${base}/:id/versions`, async (req) => ok(await byId(req, (rs) => versionSummaries(rs))));
  app.get(`${base}/:id/versions/:version`, async (req) => ok(await byId(req, (rs) => version(rs, param(req, 'version')))));

  const phaseBase = `${base}/phases/:phase/entrypoint`;
  const atEntryPoint = <T>(req: Request, view: (rs: StoredRuleset) => T) =>
    store.read(accountOf(req), (state) => view(requireEntryPoint(state, param(req, 'phase'))));
  app.get(phaseBase, async (req) => ok(await atEntryPoint(req, (rs) => presentRuleset(rs, spellingOf(req)))));
  app.put(phaseBase, replaceBody, async (req) => {
    const phase = canonicalPhase(param(req, 'phase'));
    const body = bodyOf<Partial<Ruleset>>(req);
    if (body.phase !== undefined && body.phase !== phase) {
      throw new ApiError('invalid_value', `phase: the body says ${JSON.stringify(body.phase)} but the path says ${JSON.stringify(phase)}`, '/phase');
    }
    return ok(await writeOrCheck(store, req, (state) => {
      const existing = entryPoint(state, phase);
      if (existing) {
        replace(state, existing, body);
        return written(req, existing);
      }
      const { value, issues } = parseWithSchema(createSchema(RULESET), { name: 'default', kind: 'root', ...body, phase }, VOCABULARY);
      if (issues.length > 0) throw ApiError.fromIssues(issues);
      return written(req, create(state, value as Ruleset));
    }));
  });
  app.get(`${phaseBase}/versions`, async (req) => ok(await atEntryPoint(req, (rs) => versionSummaries(rs, spellingOf(req)))));
  app.get(`${phaseBase}/versions/:version`, async (req) => ok(await atEntryPoint(req, (rs) => version(rs, param(req, 'version'), spellingOf(req)))));
}
