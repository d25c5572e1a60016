// Advanced TCP Protection: the protection status and six collections (prefixes, allowlist, SYN
// flood rules and filters, out-of-state TCP rules and filters). The collections differ only in
// data (their resource, where they live in the account, what must be unique, how they sort), so
// they are one table and one set of handlers. Every route exists under the canonical path segment
// `edge` and under the vendor's `magic`, so the official SDK works unchanged.
//
// Per the vendor: create, list (page, per_page, order, direction; filters also `mode`), bulk delete,
// get, patch and delete by id, and for prefixes a bulk create of up to 300. Deletes answer with the
// envelope without `result`.
import { PROTECTION_COMPONENTS } from '../../protection-components.js';
import { CONFLICTS, findConflicts, VOCABULARY, type Conflict } from '../../config/checks.js';
import {
  ALLOWLIST_ENTRY, arrayOf, COMPONENT_RULES, createSchema, FILTER, LIMITS, patchSchema, PREFIX, STATUS, type Resource,
} from '../../config/resources.js';
import { parseWithSchema } from '../../config/schema.js';
import { done, ok } from '../envelope.js';
import { ApiError } from '../errors.js';
import { timestamp, uuid } from '../ids.js';
import { paginate } from '../pagination.js';
import type { AccountState } from '../state.js';
import { accountOf, bodyOf, findById, ordered, param, queryOf, withBody, type Obj, type RouteContext } from './common.js';

interface Collection {
  path: string;
  what: string;
  resource: Resource;
  items(state: AccountState): Obj[];
  conflict?: Conflict;
  /** the fields a list may be ordered by; the first is the default */
  orderBy: readonly string[];
  /** filter lists accept `?mode=` */
  byMode?: boolean;
  /** prefixes accept `POST …/bulk` with an array body */
  bulkCreate?: number;
}

const TIMES = ['created_on', 'modified_on', 'id'];
const PREFIX_ORDER = ['prefix', 'comment', 'excluded', ...TIMES];
const ALLOWLIST_ORDER = ['prefix', 'comment', 'enabled', ...TIMES];
const RULE_ORDER = ['created_on', 'modified_on', 'id', 'scope', 'name', 'mode', 'rate_sensitivity', 'burst_sensitivity'];
const FILTER_ORDER = ['created_on', 'modified_on', 'id', 'expression', 'mode'];

const COLLECTIONS: Collection[] = [
  {
    path: 'prefixes', what: 'prefix', resource: PREFIX, items: (s) => s.prefixes as unknown as Obj[],
    conflict: CONFLICTS.prefix, orderBy: PREFIX_ORDER, bulkCreate: LIMITS.prefixesPerBulk,
  },
  {
    path: 'allowlist', what: 'allowlist entry', resource: ALLOWLIST_ENTRY, items: (s) => s.allowlist as unknown as Obj[],
    conflict: CONFLICTS.allowlist, orderBy: ALLOWLIST_ORDER,
  },
  ...PROTECTION_COMPONENTS.flatMap(({ name, rule, filter }): Collection[] => [
    {
      path: `${name}/rules`, what: rule, resource: COMPONENT_RULES[name], items: (s) => s[name].rules as unknown as Obj[],
      conflict: CONFLICTS.protectionRule, orderBy: RULE_ORDER,
    },
    {
      path: `${name}/filters`, what: filter, resource: FILTER, items: (s) => s[name].filters as unknown as Obj[],
      orderBy: FILTER_ORDER, byMode: true,
    },
  ]),
];

const MODE_QUERY = FILTER.fields.mode.schema;

function registerCollection({ app, store }: RouteContext, base: string, c: Collection): void {
  const url = `${base}/${c.path}`;

  const create = (state: AccountState, bodies: Obj[], pathOf: (i: number) => (string | number)[]): Obj[] => {
    const items = c.items(state);
    if (c.conflict) {
      const issues = findConflicts(c.conflict, bodies, pathOf, items, (item) => `${c.what} ${String(item.id)}`);
      if (issues.length > 0) throw ApiError.fromIssues(issues);
    }
    const created = bodies.map((body) => {
      const now = timestamp();
      return ordered(c.resource, { id: uuid(), ...body, created_on: now, modified_on: now });
    });
    items.push(...created);
    return created;
  };

  app.get(url, async (req) => {
    const query = queryOf(req);
    const { result, info } = await store.read(accountOf(req), (state) => {
      let items = c.items(state);
      if (c.byMode && query.mode !== undefined) {
        const { issues } = parseWithSchema(MODE_QUERY, query.mode, VOCABULARY, ['mode']);
        if (issues.length > 0) throw new ApiError('invalid_query', `mode: ${issues[0].message}`);
        items = items.filter((i) => i.mode === query.mode);
      }
      return paginate(items, query, c.orderBy, c.orderBy[0]);
    });
    return ok(result, info);
  });

  app.post(url, withBody(createSchema(c.resource)), async (req) => {
    return ok(await store.write(accountOf(req), (state) => create(state, [bodyOf(req)], () => [])[0]));
  });

  if (c.bulkCreate !== undefined) {
    app.post(`${url}/bulk`, withBody({ ...arrayOf(createSchema(c.resource), c.bulkCreate), minItems: 1 }), async (req) => {
      return ok(await store.write(accountOf(req), (state) => create(state, bodyOf<Obj[]>(req), (i) => [i])));
    });
  }

  app.delete(url, async (req) => {
    await store.write(accountOf(req), (state) => {
      c.items(state).length = 0;
    });
    return done();
  });

  app.get(`${url}/:id`, async (req) => {
    return ok(await store.read(accountOf(req), (state) => findById(c.items(state), param(req, 'id'), c.what)));
  });

  app.patch(`${url}/:id`, withBody(patchSchema(c.resource)), async (req) => {
    return ok(await store.write(accountOf(req), (state) => {
      const item = findById(c.items(state), param(req, 'id'), c.what);
      return Object.assign(item, bodyOf(req), { modified_on: timestamp() });
    }));
  });

  app.delete(`${url}/:id`, async (req) => {
    await store.write(accountOf(req), (state) => {
      const items = c.items(state);
      items.splice(items.indexOf(findById(items, param(req, 'id'), c.what)), 1);
    });
    return done();
  });
}

/** Registers the ATP routes under `{prefix}/accounts/:account/{edge|magic}/advanced_tcp_protection/configs`. */
export function registerAtpRoutes(ctx: RouteContext, prefix: string): void {
  const { app, store } = ctx;
  for (const segment of ['edge', 'magic']) {
    const base = `${prefix}/accounts/:account/${segment}/advanced_tcp_protection/configs`;
    app.get(`${base}/tcp_protection_status`, async (req) => ok(await store.read(accountOf(req), (state) => state.tcp_protection_status)));
    app.patch(`${base}/tcp_protection_status`, withBody(createSchema(STATUS)), async (req) => {
      return ok(await store.write(accountOf(req), (state) => {
        state.tcp_protection_status = { enabled: bodyOf<{ enabled: boolean }>(req).enabled };
        return state.tcp_protection_status;
      }));
    });
    for (const c of COLLECTIONS) registerCollection(ctx, base, c);
  }
}
