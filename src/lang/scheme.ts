// A scheme is what an expression may name: fields with their types, functions, and the types for
// which `in $list` is defined (the engine registers at most one list definition per type).
// Fields and functions share one namespace, as in the engine.
import type { ElementValue, FieldAccess } from './binding.js';
import type { Literal } from './literals/literal.js';
import type { LangType, Primitive } from './types.js';

export interface FieldDef {
  readonly name: string;
  readonly type: LangType;
  /**
   * A field that stands for several others (ip.geoip.country: the source or the destination
   * country): comparisons match when any of them matches, `!=` when none equals.
   */
  readonly anyOf?: readonly string[];
}

/** What a function definition sees of an argument while checking it. */
export interface FunctionParam {
  /** 'Field' for anything read from the packet, 'Literal' for a constant */
  readonly kind: 'Field' | 'Literal';
  readonly type: LangType;
  readonly literal?: Literal;
  /** the field's name when the argument is a bare field */
  readonly field?: string;
}

/** A problem with one argument, reported by the engine as `invalid kind|type|value of argument #i: …`. */
export type ParamProblem =
  | { readonly kind: 'kind'; readonly expected: 'Field' | 'Literal' }
  | { readonly kind: 'type'; readonly expected: string }
  | { readonly kind: 'value'; readonly message: string };

/**
 * A function, known in this one definition (as in the engine's `functions/*.rs`): its argument
 * checks and return type for the parser, its value for the reference interpreter, and optionally
 * a compiled accessor for the compiler. Nothing else matches a function by name.
 */
export interface FunctionDef {
  readonly name: string;
  /** for people (completion, hover): the call with its parameters' kinds and types, and what it gives */
  readonly signature: string;
  readonly summary: string;
  readonly minArgs: number;
  /** undefined: no maximum */
  readonly maxArgs?: number;
  checkParam(index: number, param: FunctionParam, previous: readonly FunctionParam[]): ParamProblem | null;
  returnType(params: readonly FunctionParam[]): LangType;
  /**
   * The call's value from its evaluated arguments (undefined: absent). With `[*]` on the first
   * argument the interpreter calls it once per element.
   */
  evaluate(args: readonly (ElementValue | undefined)[], params: readonly FunctionParam[]): ElementValue | undefined;
  /** An allocation-free accessor for the call's (primitive) value; without it the interpreter evaluates the call. */
  compile?<P>(params: readonly FunctionParam[], field: (name: string) => FieldAccess<P>): FieldAccess<P>;
}

export interface SchemeSpec {
  readonly fields: Readonly<Record<string, LangType | Omit<FieldDef, 'name'>>>;
  readonly functions?: readonly FunctionDef[];
  /** types with a list definition (`field in $name`) */
  readonly lists?: readonly Primitive[];
}

export class Scheme {
  private readonly fields = new Map<string, FieldDef>();
  private readonly functions = new Map<string, FunctionDef>();
  private readonly listTypes: ReadonlySet<Primitive>;

  constructor(spec: SchemeSpec) {
    for (const [name, def] of Object.entries(spec.fields)) {
      this.fields.set(name, typeof def === 'object' && 'type' in def ? { name, ...def } : { name, type: def as LangType });
    }
    for (const fn of spec.functions ?? []) this.functions.set(fn.name, fn);
    this.listTypes = new Set(spec.lists ?? []);
  }

  field(name: string): FieldDef | undefined {
    return this.fields.get(name);
  }

  fn(name: string): FunctionDef | undefined {
    return this.functions.get(name);
  }

  hasList(type: LangType): boolean {
    return typeof type === 'string' && this.listTypes.has(type);
  }

  fieldNames(): string[] {
    return [...this.fields.keys()];
  }

  functionNames(): string[] {
    return [...this.functions.keys()];
  }
}
