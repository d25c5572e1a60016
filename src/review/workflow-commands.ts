// GitHub Actions workflow commands (`::error file=…,line=…::message`), escaped as the runner reads
// them: in the message `%`, CR and LF; in property values also `:` and `,`; any other control
// character as terminal-text's `printable` writes it. Each line is issued (`issuedCommand`): the
// guard every printed line passes through lets it, and no other line starting with `::`, through.
import { issuedCommand, printable } from '../terminal-text.js';

/** Annotations GitHub shows of one level in a step; the rest are counted in one line. */
export const ANNOTATIONS_SHOWN = 10;

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  title?: string;
  file?: string;
  line?: number;
  col?: number;
  endLine?: number;
  endColumn?: number;
}

function escapeData(text: string): string {
  return printable(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow-command line for an annotation. */
export function workflowCommand(annotation: Annotation): string {
  const { level, message, ...properties } = annotation;
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return issuedCommand(`::${level}${props === '' ? '' : ` ${props}`}::${escapeData(message)}`);
}

/** At most ANNOTATIONS_SHOWN annotations as command lines, then, when some were left out, the line `more` says of their number. */
export function shownAnnotations(annotations: readonly Annotation[], more: (left: number) => string): string[] {
  const lines = annotations.slice(0, ANNOTATIONS_SHOWN).map(workflowCommand);
  if (annotations.length > ANNOTATIONS_SHOWN) lines.push(more(annotations.length - ANNOTATIONS_SHOWN));
  return lines;
}
