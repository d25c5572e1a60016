// Where a capture's label sidecar is: `<capture>.labels.ndjson`. Apart from the label reader and
// writer (labels.ts) because every command that checks its outputs against its inputs needs the
// name, and only a replay that scores labels needs the reader.

/** The label sidecar's path for a capture. */
export function labelsPathFor(capturePath: string): string {
  return `${capturePath}.labels.ndjson`;
}
