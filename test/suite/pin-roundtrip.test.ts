// Packet cases accept what `edgesim inspect` prints: every frame of the demo capture, inspected,
// pasted into a case (its line as it is), built and decided on a suite's path, has the same fields
// (looked-up ones included: the case gives them); and without its raw bytes (`ip`, `tcp`, ...),
// from the named fields alone with the transport bytes' payload, the same named fields.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SuitePaths } from '../../src/suite/case-path.js';
import { tracePackets } from '../../src/suite/kinds/packet.js';
import { parsePacket } from '../../src/suite/packet-spec.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { ROOT } from '../helpers/cli.js';

const RAW = ['ip', 'tcp', 'udp', 'icmp'];

/** The fields of the packet a case gives, as the suite's path sees it (an empty configuration: lookups only). */
async function inspectorOf(): Promise<(fields: Record<string, unknown>) => Record<string, unknown>> {
  const paths = await SuitePaths.open({}, {});
  return (fields) => tracePackets([parsePacket(parseSuiteText('case', JSON.stringify(fields)))], 0, paths).fields;
}

function without(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

/** The transport payload of an inspected line: its transport bytes after the header. */
function payloadOf(line: Record<string, unknown>): string | undefined {
  const bytes = (line.tcp ?? line.udp ?? line.icmp) as string | undefined;
  if (bytes === undefined) return undefined;
  const b = bytes.split(':');
  const header = line.tcp !== undefined ? (parseInt(b[12]!, 16) >> 4) * 4 : 8;
  return b.length > header ? b.slice(header).join(':') : undefined;
}

describe('inspect -> case -> inspect', () => {
  const lines = execFileSync(process.execPath, [path.join(ROOT, 'bin/edgesim.js'), 'inspect', path.join(ROOT, 'examples/demo.pcap')], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a pasted line builds the packet it came from, for every frame of the demo capture', async () => {
    const inspect = await inspectorOf();
    expect(lines.length).toBe(4526);
    for (const line of lines) {
      const fields = without(line, ['note']);
      expect(inspect(fields), `frame ${String(line.frame)}`).toEqual(without(fields, ['frame', 'time']));
    }
  });

  it('the named fields alone, with the payload, build the same fields for every frame', async () => {
    const inspect = await inspectorOf();
    for (const line of lines) {
      const payload = payloadOf(line);
      const fields = { ...without(line, ['note', ...RAW]), ...(payload === undefined ? {} : { payload }) };
      expect(without(inspect(fields), RAW), `frame ${String(line.frame)}`).toEqual(without(fields, ['frame', 'time', 'payload']));
    }
  });
});
