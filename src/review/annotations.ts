// lint's findings as GitHub Actions annotations. GitHub shows only about ten annotations of each
// level per step, so the most important come first (errors, then warnings, then notes, each in the
// order of the file) and, past ten of a level, one plain line says how many more there were.
import type { Severity } from '../analysis/index.js';
import { counted } from '../numbers.js';
import type { ReviewFinding } from './lint-findings.js';
import { ANNOTATIONS_SHOWN, shownAnnotations, type AnnotationLevel } from './workflow-commands.js';

const ORDER: readonly Severity[] = ['error', 'warning', 'note'];
const LEVEL: Readonly<Record<Severity, AnnotationLevel>> = { error: 'error', warning: 'warning', note: 'notice' };

/** The workflow-command lines for `findings` (in file order), most important first; a finding in one of `notFiles` (standard input) is annotated without a file. */
export function annotationLines(findings: readonly ReviewFinding[], notFiles: readonly string[] = []): string[] {
  return ORDER.flatMap((severity) => {
    const annotations = findings
      .filter((r) => r.severity === severity)
      .map(({ finding, location }) => ({
        level: LEVEL[severity],
        title: `edgesim ${finding.kind}`,
        ...(notFiles.includes(location.file)
          ? {}
          : { file: location.file, line: location.line, endLine: location.endLine, col: location.column, endColumn: location.endColumn }),
        message: location.address === undefined ? finding.message : `${location.address}: ${finding.message}`,
      }));
    return shownAnnotations(
      annotations,
      (more) => `edgesim: ${counted(more, `more ${severity} finding`)} not annotated (GitHub shows about ${ANNOTATIONS_SHOWN} a level); every finding is in the job summary and in --format sarif`,
    );
  });
}
