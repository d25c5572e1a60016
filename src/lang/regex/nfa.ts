// Thompson's construction: a parsed pattern becomes a graph of states, each either consuming one
// byte of a set, splitting in two, asserting a zero-width condition, or accepting. Counted
// repetitions are unrolled, so the graph's size is checked first, against the reference engine's
// compiled-size limit (wirefilter's default, 10 MiB), with a cost model after the one regex-automata
// uses (32 bytes a state, plus 8 a byte range in a multi-range set and 4 an alternative in a union);
// the threshold therefore matches the reference engine's to within that model, not to the byte.
import { type ByteSet, type Look, type RegexNode } from './syntax.js';

export const COMPILED_SIZE_LIMIT = 10 * (1 << 20);

export const enum StateKind {
  Bytes,
  Split,
  Look,
  Match,
}

export interface Nfa {
  readonly kind: Uint8Array;
  readonly out1: Int32Array;
  readonly out2: Int32Array;
  /** the set index of a Bytes state, the Look of a Look state */
  readonly arg: Int32Array;
  readonly sets: readonly ByteSet[];
  readonly start: number;
}

export class RegexTooBigError extends Error {
  constructor() {
    super(`Compiled regex exceeds size limit of ${COMPILED_SIZE_LIMIT} bytes.`);
  }
}

const STATE_BYTES = 32;

function ranges(set: ByteSet): number {
  let n = 0;
  for (let b = 0; b < 256; b++) if (set[b] && (b === 0 || !set[b - 1])) n++;
  return n;
}

/** Estimated compiled size of a node in bytes (a float: unrolled repetitions can be huge). */
function cost(node: RegexNode): number {
  switch (node.kind) {
    case 'bytes': {
      const r = ranges(node.set);
      return STATE_BYTES + (r > 1 ? 8 * r : 0);
    }
    case 'concat':
      return node.items.reduce((sum, n) => sum + cost(n), 0);
    case 'alternate':
      return node.items.reduce((sum, n) => sum + cost(n), STATE_BYTES + 4 * node.items.length);
    case 'repeat': {
      const copies = Number.isFinite(node.max) ? node.max : Math.max(node.min, 1);
      const unions = Number.isFinite(node.max) ? node.max - node.min : 1;
      return copies * cost(node.item) + unions * (STATE_BYTES + 8);
    }
    case 'look':
      return STATE_BYTES;
    case 'empty':
      return 0;
  }
}

/** Builds the automaton, or throws RegexTooBigError. */
export function buildNfa(root: RegexNode): Nfa {
  if (cost(root) > COMPILED_SIZE_LIMIT) throw new RegexTooBigError();
  const kind: number[] = [];
  const out1: number[] = [];
  const out2: number[] = [];
  const arg: number[] = [];
  const sets: ByteSet[] = [];
  const add = (k: StateKind, a: number, o1: number, o2: number): number => {
    kind.push(k);
    arg.push(a);
    out1.push(o1);
    out2.push(o2);
    return kind.length - 1;
  };
  const split = (a: number, b: number) => add(StateKind.Split, 0, a, b);

  // Compiles node so that it continues to `next`; returns its entry state.
  const compile = (node: RegexNode, next: number): number => {
    switch (node.kind) {
      case 'bytes':
        sets.push(node.set);
        return add(StateKind.Bytes, sets.length - 1, next, -1);
      case 'look':
        return add(StateKind.Look, node.look as Look, next, -1);
      case 'empty':
        return next;
      case 'concat': {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--) entry = compile(node.items[i], entry);
        return entry;
      }
      case 'alternate': {
        let entry = compile(node.items[node.items.length - 1], next);
        for (let i = node.items.length - 2; i >= 0; i--) entry = split(compile(node.items[i], next), entry);
        return entry;
      }
      case 'repeat': {
        let entry = next;
        if (!Number.isFinite(node.max)) {
          const loop = split(-1, next);
          out1[loop] = compile(node.item, loop);
          entry = loop;
        } else {
          for (let k = node.min; k < node.max; k++) entry = split(compile(node.item, entry), next);
        }
        for (let k = 0; k < node.min; k++) entry = compile(node.item, entry);
        return entry;
      }
    }
  };

  const match = add(StateKind.Match, 0, -1, -1);
  const start = compile(root, match);
  return {
    kind: Uint8Array.from(kind),
    out1: Int32Array.from(out1),
    out2: Int32Array.from(out2),
    arg: Int32Array.from(arg),
    sets,
    start,
  };
}
