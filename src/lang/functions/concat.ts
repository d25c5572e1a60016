// concat(a, b, …): byte strings or arrays of one type, joined. It is in the engine's example
// scheme (the documented vectors use it), not in the firewall scheme. Absent arguments are
// skipped; all absent gives absent. Not compiled: the interpreter evaluates it.
import { elementsOf, type CompoundValue, type ElementValue } from '../binding.js';
import type { FunctionDef, ParamProblem } from '../scheme.js';
import { display, isArray, sameType } from '../types.js';

export const concat: FunctionDef = {
  name: 'concat',
  signature: 'concat(a: Bytes | Array<T>, b: same type, …) -> same type',
  summary: 'The byte strings or arrays given, joined in order; absent arguments are skipped, and all absent gives absent.',
  minArgs: 2,
  checkParam(index, param, previous): ParamProblem | null {
    if (index === 0) return param.type === 'Bytes' || isArray(param.type) ? null : { kind: 'type', expected: 'Bytes or Array<_>' };
    return sameType(param.type, previous[0].type) ? null : { kind: 'type', expected: display(previous[0].type) };
  },
  returnType: (params) => params[0].type,
  evaluate(args) {
    const present = args.filter((v): v is ElementValue => v !== undefined);
    if (present.length === 0) return undefined;
    if (present[0] instanceof Uint8Array) return Uint8Array.from(present.flatMap((v) => [...(v as Uint8Array)]));
    return present.flatMap((v) => elementsOf(v as CompoundValue));
  },
};
