// A problem of a document as the checks find it, in document offsets: what the server turns into
// an LSP diagnostic (and the playground into a line under its editor).

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

/** A change of the document that fixes a problem (offsets of the document's text). */
export interface FixEdit {
  title: string;
  start: number;
  end: number;
  text: string;
}

export interface Problem {
  start: number;
  end: number;
  severity: ProblemSeverity;
  /** the engine's error code, lint's finding kind, or what kind of note it is */
  code: string;
  message: string;
  /** other places that explain it (an unreachable rule's covering rules) */
  related?: Array<{ start: number; end: number; message: string }>;
  /** quick fixes */
  fixes?: FixEdit[];
  /** a quick fix that removes the object at this path of the document (a dead rule), worked out when asked for */
  removal?: { path: ReadonlyArray<string | number>; title: string };
}
