// Runs an automaton over a byte string in one pass, as Rust's regex crate does with its lazy DFA:
// a DFA state is the set of automaton states alive after a byte (plus what kind of byte it was,
// which zero-width assertions need), built the first time it is reached and then found by one table
// lookup per byte. A search is unanchored and only asks "is there a match", so every position also
// starts the automaton afresh and the first accepting state ends the search. Work per byte is one
// lookup, or, for a transition not yet built, one pass over the automaton: linear in the input
// whatever the pattern. The cache is bounded; when full it is dropped and rebuilt as needed.
// Matching allocates nothing once the states it meets are built.
import { Look, WORD_BYTES } from './syntax.js';
import { StateKind, type Nfa } from './nfa.js';

/** What surrounds a position: the byte before it, the byte after it. */
const enum Side {
  Edge,
  Newline,
  Word,
  Other,
}

const MATCH = 0;
const UNKNOWN = -1;
const CACHE_STATES = 2048;

function sideOf(b: number): Side {
  if (b === 0x0a) return Side.Newline;
  return WORD_BYTES[b] ? Side.Word : Side.Other;
}

function holds(look: Look, before: Side, after: Side): boolean {
  switch (look) {
    case Look.StartText:
      return before === Side.Edge;
    case Look.EndText:
      return after === Side.Edge;
    case Look.StartLine:
      return before === Side.Edge || before === Side.Newline;
    case Look.EndLine:
      return after === Side.Edge || after === Side.Newline;
    case Look.WordBoundary:
      return (before === Side.Word) !== (after === Side.Word);
    case Look.NotWordBoundary:
      return (before === Side.Word) === (after === Side.Word);
    case Look.WordStart:
      return before !== Side.Word && after === Side.Word;
    case Look.WordEnd:
      return before === Side.Word && after !== Side.Word;
  }
}

/** Byte classes: bytes no set, anchor or word test tells apart share one column of the table. */
function byteClasses(nfa: Nfa): { classOf: Uint8Array; count: number } {
  const cut = new Uint8Array(257);
  const mark = (set: ArrayLike<number>) => {
    for (let b = 1; b < 256; b++) if (set[b] !== set[b - 1]) cut[b] = 1;
  };
  for (const set of nfa.sets) mark(set);
  mark(WORD_BYTES);
  cut[0x0a] = cut[0x0b] = 1;
  const classOf = new Uint8Array(256);
  let c = 0;
  for (let b = 1; b < 256; b++) {
    if (cut[b]) c++;
    classOf[b] = c;
  }
  return { classOf, count: c + 1 };
}

export class LazyDfa {
  private readonly classOf: Uint8Array;
  private readonly classes: number;
  private table = new Int32Array(0);
  private pending: Int32Array[] = [];
  private before: Side[] = [];
  private atEnd: number[] = [];
  private ids = new Map<string, number>();
  private readonly marks: Uint32Array;
  private generation = 0;
  private readonly stack: Int32Array;
  private readonly alive: Int32Array;
  private readonly start: number;

  constructor(private readonly nfa: Nfa) {
    const classes = byteClasses(nfa);
    this.classOf = classes.classOf;
    this.classes = classes.count;
    const n = nfa.kind.length;
    this.marks = new Uint32Array(n);
    this.stack = new Int32Array(n);
    this.alive = new Int32Array(n);
    this.start = this.reset();
  }

  /** true if the pattern matches anywhere in bytes[start, end) */
  test(bytes: Uint8Array, start: number, end: number): boolean {
    const classOf = this.classOf;
    const k = this.classes;
    let table = this.table;
    let s = this.start;
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      let t = table[s * k + classOf[b]];
      if (t === UNKNOWN) {
        t = this.build(s, b);
        table = this.table;
      }
      if (t === MATCH) return true;
      s = t;
    }
    let e = this.atEnd[s];
    if (e === UNKNOWN) e = this.atEnd[s] = this.closure(s, Side.Edge) < 0 ? 1 : 0;
    return e === 1;
  }

  /** Empties the cache but for the accepting state and the start state; returns the start state. */
  private reset(): number {
    this.ids.clear();
    this.table.fill(UNKNOWN);
    this.pending = [new Int32Array(0)];
    this.before = [Side.Edge];
    this.atEnd = [1];
    return this.intern(new Int32Array(0), Side.Edge);
  }

  private intern(states: Int32Array, before: Side): number {
    const key = `${before}:${states.join(',')}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.pending.length;
    this.ids.set(key, id);
    this.pending.push(states);
    this.before.push(before);
    this.atEnd.push(UNKNOWN);
    const need = (id + 1) * this.classes;
    if (this.table.length < need) {
      const grown = new Int32Array(Math.max(need, this.table.length * 2)).fill(UNKNOWN);
      grown.set(this.table);
      this.table = grown;
    }
    return id;
  }

  /**
   * Follows empty moves from state s's pending states and the automaton's start, with `after` the
   * side of the coming byte; leaves the byte-consuming states in this.alive and returns their
   * count, or -1 if an accepting state is reached.
   */
  private closure(s: number, after: Side): number {
    const { kind, out1, out2, arg } = this.nfa;
    const before = this.before[s];
    const marks = this.marks;
    const stack = this.stack;
    const gen = ++this.generation;
    let top = 0;
    let alive = 0;
    const pending = this.pending[s];
    for (let i = pending.length - 1; i >= 0; i--) stack[top++] = pending[i];
    stack[top++] = this.nfa.start;
    while (top > 0) {
      const q = stack[--top];
      if (marks[q] === gen) continue;
      marks[q] = gen;
      switch (kind[q] as StateKind) {
        case StateKind.Match:
          return -1;
        case StateKind.Bytes:
          this.alive[alive++] = q;
          break;
        case StateKind.Split:
          stack[top++] = out2[q];
          stack[top++] = out1[q];
          break;
        case StateKind.Look:
          if (holds(arg[q] as Look, before, after)) stack[top++] = out1[q];
          break;
      }
    }
    return alive;
  }

  /** Builds the transition from state s on byte b (and every byte of its class). */
  private build(s: number, b: number): number {
    const alive = this.closure(s, sideOf(b));
    if (alive < 0) {
      this.table[s * this.classes + this.classOf[b]] = MATCH;
      return MATCH;
    }
    const { out1, arg, sets } = this.nfa;
    const next: number[] = [];
    for (let i = 0; i < alive; i++) {
      const q = this.alive[i];
      if (sets[arg[q]][b]) next.push(out1[q]);
    }
    next.sort((x, y) => x - y);
    const states = Int32Array.from(next.filter((q, i) => i === 0 || next[i - 1] !== q));
    if (this.pending.length >= CACHE_STATES) {
      this.reset();
      return this.intern(states, sideOf(b));
    }
    const t = this.intern(states, sideOf(b));
    this.table[s * this.classes + this.classOf[b]] = t;
    return t;
  }
}
