// Expression validation (`/filters/validate-expr`, GET with `?expression=` or POST with
// `{"expression": …}`; also under `/zones/{zone}/…`, the path the official SDK can reach). It
// changes nothing. The answers are the vendor's, including its one irregularity: a failure has
// `messages: null` and error objects without a code.
import { FORMATS } from '../../config/formats.js';
import type { JsonSchema } from '../../config/schema.js';
import { validateExprEnvelope } from '../envelope.js';
import { ApiError } from '../errors.js';
import { bodyOf, queryOf, withBody, type RouteContext } from './common.js';

const BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['expression'],
  properties: { expression: { type: 'string' } },
};

function answer(expression: string, reply: { code(status: number): unknown }): unknown {
  const problem = FORMATS['rule-expression'](expression);
  if (problem) reply.code(400);
  return validateExprEnvelope(problem ? problem.message : null);
}

/** Registers GET and POST validate-expr under `{prefix}/filters` and `{prefix}/zones/:zone/filters`. */
export function registerValidateExprRoutes({ app }: RouteContext, prefix: string): void {
  for (const base of [`${prefix}/filters/validate-expr`, `${prefix}/zones/:zone/filters/validate-expr`]) {
    app.get(base, async (req, reply) => {
      const { expression } = queryOf(req);
      if (expression === undefined) throw new ApiError('invalid_query', 'expression: the query parameter is required');
      return answer(expression, reply);
    });
    app.post(base, withBody(BODY), async (req, reply) => answer(bodyOf<{ expression: string }>(req).expression, reply));
  }
}
