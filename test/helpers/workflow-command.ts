// GitHub's runner reading a workflow-command line back (actions/runner ActionCommand.TryParseV2,
// unescaping as it does), for tests of annotations.

export function readCommand(line: string): { command: string; properties: Record<string, string>; data: string } {
  const m = /^::([a-z]+)(?: ([^:]*))?::(.*)$/s.exec(line)!;
  const unescape = (s: string): string => s.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const properties: Record<string, string> = {};
  for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
  }
  return { command: m[1]!, properties, data: unescape(m[3]!) };
}
