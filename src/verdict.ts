// A packet's verdict. Every stage says it as one boolean, `drop` (the firewall's result, ATP's
// decision, the packet's verdict); the words "pass" and "drop" appear only in what people and
// programs read (NDJSON, CSV, reports, suites, traces), and are written by this one function.
export type VerdictName = 'pass' | 'drop';

export function verdictName(drop: boolean): VerdictName {
  return drop ? 'drop' : 'pass';
}
