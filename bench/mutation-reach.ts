// Which test files reach a mutant's code: `npm run mutation -- --recheck` runs each survivor only against
// the test files whose run executes the place it acts, found by one run of all of them against a copy of
// the file with a probe at each such place (Stryker's per-test coverage, at the grain of a test file).
// A test file whose run never executes a mutant's code runs the same code with it as without it, so it
// cannot kill it: leaving it out changes no outcome, only the time.
//
// A probe goes where the code that holds the mutant starts to run, never inside an expression whose
// meaning a bracket could change (a callee, an optional chain, an assignment's target):
// - at the start of the innermost block (or `case` clause) whose statements hold the mutant, or of the
//   block a mutant replaces (BlockStatement), or of the body of a function a mutant replaces;
// - around the operand that holds it when that operand runs only on a condition: a branch of `c ? a : b`,
//   the right side of `&&`, `||` or `??`, an arrow function's expression body, a default value or a
//   class field's initializer: `(probe, operand)` has the operand's value;
// - else (module-level code) at the start of the file: every test file that loads it reaches it.
// So a probe runs whenever the mutant's code runs (and sometimes when it does not): the set it finds can
// be too large, never too small.
import ts from 'typescript';
import { type MutantRow, mutantSpan } from './mutation-report.js';
import { REACH_FILE_VARIABLE } from './mutation-setup.js';


const PROBE = 'globalThis.__edgesimReach?.';

// Defined once per thread (a worker thread loading the file defines its own); each probe's first hit in a
// thread appends `pid ppid probe` to the reach file (a process a test starts is told by its parent).
// Written on one line, so that the file's lines below keep their numbers.
const PRELUDE = `globalThis.__edgesimReach ??= ((fs, file, seen) => (k) => { if (file !== undefined && !seen.has(k)) { seen.add(k); fs.appendFileSync(file, process.pid + ' ' + process.ppid + ' ' + k + '\\n'); } })(process.getBuiltinModule('node:fs'), process.env.${REACH_FILE_VARIABLE}, new Set());`;

interface Insertion {
  at: number;
  text: string;
  /** at one offset: closing brackets first (the inner one first: 0 to 1), then openings (the outer one first: 1 to 2), then statements (3) */
  order: number;
}

/** Where a probe goes: before a block's statements (an offset), or around an expression (its span). */
type Place = { kind: 'statements'; at: number } | { kind: 'wrap'; start: number; end: number };

/** The smallest node whose text is exactly [start, end), else the smallest that holds it. */
function nodeAt(file: ts.SourceFile, start: number, end: number): ts.Node {
  let found: ts.Node = file;
  const visit = (node: ts.Node): void => {
    if (node.getStart(file) <= start && end <= node.end) {
      found = node;
      ts.forEachChild(node, visit);
    }
  };
  ts.forEachChild(file, visit);
  return found;
}

function bodyPlace(body: ts.Node | undefined, file: ts.SourceFile): Place | undefined {
  if (body === undefined) return undefined;
  if (ts.isBlock(body)) return { kind: 'statements', at: body.statements.pos };
  return { kind: 'wrap', start: body.getStart(file), end: body.end };
}

/** The place of the probe that runs whenever the code at [start, end) runs. */
export function probePlace(file: ts.SourceFile, start: number, end: number): Place {
  const node = nodeAt(file, start, end);
  // the mutant is a block, or a function, whose body it replaces
  if (ts.isBlock(node) || ts.isModuleBlock(node)) return { kind: 'statements', at: node.statements.pos };
  if (ts.isFunctionLike(node)) {
    const place = bodyPlace((node as ts.FunctionLikeDeclaration).body, file);
    if (place !== undefined) return place;
  }
  for (let child: ts.Node = node, parent = node.parent; parent !== undefined; child = parent, parent = parent.parent) {
    if ((ts.isBlock(parent) || ts.isModuleBlock(parent) || ts.isCaseClause(parent) || ts.isDefaultClause(parent)) && parent.statements.includes(child as ts.Statement)) {
      return { kind: 'statements', at: parent.statements.pos };
    }
    if (ts.isSourceFile(parent)) return { kind: 'statements', at: 0 };
    const conditional =
      (ts.isConditionalExpression(parent) && (child === parent.whenTrue || child === parent.whenFalse)) ||
      (ts.isBinaryExpression(parent) && child === parent.right && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(parent.operatorToken.kind)) ||
      (ts.isArrowFunction(parent) && child === parent.body) ||
      ((ts.isParameter(parent) || ts.isPropertyDeclaration(parent) || ts.isBindingElement(parent)) && child === parent.initializer);
    if (conditional) return { kind: 'wrap', start: child.getStart(file), end: child.end };
  }
  return { kind: 'statements', at: 0 };
}

export interface Probed {
  /** the source with a probe at each mutant's place and the prelude that defines them */
  text: string;
  /** for each mutant (in the order given), its probe's number */
  probeOf: number[];
  /** how many probes (mutants at one place share one) */
  probes: number;
}

/** `source` with a probe at the place of each of `mutants` (mutants at one place share it). */
export function probeSource(source: string, fileName: string, mutants: ReadonlyArray<Pick<MutantRow, 'line' | 'column' | 'end'>>): Probed {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const numbered = new Map<string, number>();
  const places: Place[] = [];
  const probeOf = mutants.map((m) => {
    const [start, end] = mutantSpan(source, m);
    const place = probePlace(file, start, end);
    const key = place.kind === 'statements' ? `s${place.at}` : `w${place.start}-${place.end}`;
    let n = numbered.get(key);
    if (n === undefined) {
      n = places.length;
      numbered.set(key, n);
      places.push(place);
    }
    return n;
  });
  const insertions: Insertion[] = [];
  for (const [n, place] of places.entries()) {
    const call = `${PROBE}(${n})`;
    if (place.kind === 'statements') insertions.push({ at: place.at, text: `${call};`, order: 3 });
    else {
      const inner = 1 / (1 + place.end - place.start);
      insertions.push({ at: place.start, text: `(${call}, `, order: 1 + inner });
      insertions.push({ at: place.end, text: ')', order: 1 - inner });
    }
  }
  insertions.sort((a, b) => a.at - b.at || a.order - b.order);
  let text = '';
  let from = 0;
  for (const i of insertions) {
    text += source.slice(from, i.at) + i.text;
    from = i.at;
  }
  text += source.slice(from);
  return { text: `${PRELUDE}${text}`, probeOf, probes: places.length };
}
