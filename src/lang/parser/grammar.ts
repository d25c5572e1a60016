// The grammar table (see context.ts): the one place that knows which file holds which production.
import { parseCall } from './call.js';
import { comparisonWithLhs, parseComparison } from './comparison.js';
import type { Grammar } from './context.js';
import { parseIndexExpr } from './index-expr.js';
import { parseLogical } from './logical.js';

export const GRAMMAR: Grammar = {
  logical: parseLogical,
  comparison: parseComparison,
  comparisonWithLhs,
  indexExpr: parseIndexExpr,
  call: parseCall,
};
