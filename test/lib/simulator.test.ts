// The library's simulator against the CLI: decide keeps a conversation and reset() ends it, a wrong
// packet is a SuiteError naming the field, replay yields exactly the CLI's NDJSON records from a path,
// bytes or chunks (however the bytes are cut), and validate gives the engine's exact text.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulator, loadConfig, validate, lint, diff, ConfigItemError, SuiteError, SnapshotError, type VerdictRecord } from '../../src/lib/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const DEMO = path.join(ROOT, 'examples/demo-snapshot.json');
const CAPTURE = path.join(ROOT, 'examples/demo.pcap');
const SSH = { 'ip.dst': '203.0.113.10', 'tcp.dstport': 22 };

async function all(records: AsyncIterable<VerdictRecord>): Promise<VerdictRecord[]> {
  const out: VerdictRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

const cliRecords = (): VerdictRecord[] => {
  const r = runCli(['replay', CAPTURE, '--config', DEMO, '--format', 'ndjson']);
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as VerdictRecord);
};

describe('createSimulator: decide, trace, reset', () => {
  it('decides a packet as one NDJSON record', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    expect(sim.decide({ 'ip.src': '198.51.100.7', ...SSH })).toEqual({
      frame: 1, time: 1_700_000_000, verdict: 'drop', stage: 'firewall', rule: 'ssh-from-office', matched: ['ssh-from-office'], monitor: null, reason: null,
    });
  });

  it('keeps protection state between packets until reset()', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    const office = { ...SSH, 'ip.src': '10.0.0.9' };
    expect(sim.decide({ ...office, 'tcp.flags.syn': true }).verdict).toBe('pass');
    const ack = { ...office, 'tcp.flags.ack': true, time: 0.01 };
    const handshake = sim.trace(ack);
    expect([handshake.frame, handshake.verdict]).toEqual([2, 'pass']);
    expect(handshake.steps[1]!.detail).toMatchObject({ step: 'tcp_flow_protection', connection: { before: 'new', after: 'open' } });
    sim.reset();
    // the same ACK on a fresh path belongs to no connection ATP has seen
    const alone = sim.trace(ack);
    expect(alone.frame).toBe(1);
    expect(alone.steps[1]!.detail).toMatchObject({ step: 'tcp_flow_protection', connection: { before: 'none' } });
  });

  it('traces the packet it decides, in agreement with decide', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    const t = sim.trace({ 'ip.src': '198.51.100.7', ...SSH });
    expect([t.verdict, t.rule, t.steps.map((s) => s.step_name)]).toEqual(['drop', 'ssh-from-office', ['decode', 'advanced_tcp_protection', 'firewall']]);
    expect(t.steps[2]!.trace!.find((r) => r.decided)!.step_name).toBe('ssh-from-office');
  });

  it('decide and trace agree on every packet of a conversation (fast-check)', async () => {
    const config = await loadConfig(DEMO);
    const [a, b] = [await createSimulator(config), await createSimulator(config)];
    const packet = fc.record({
      'ip.src': fc.constantFrom('198.51.100.7', '10.0.0.9', '192.0.2.5'),
      'ip.dst': fc.constantFrom('203.0.113.10', '203.0.113.200', '198.51.100.53'),
      'tcp.dstport': fc.constantFrom(22, 23, 80, 443, 8080),
      'tcp.flags': fc.constantFrom(0x02, 0x10, 0x12, 0x04),
    });
    fc.assert(
      fc.property(fc.array(packet, { minLength: 1, maxLength: 12 }), (packets) => {
        a.reset();
        b.reset();
        packets.forEach((p, i) => {
          const timed = { ...p, time: i * 0.01 };
          const t = b.trace(timed);
          expect(a.decide(timed)).toMatchObject({ frame: t.frame, verdict: t.verdict, stage: t.stage, rule: t.rule, matched: t.matched, reason: t.reason });
        });
      }),
      { numRuns: 50 },
    );
  });

  it('throws a SuiteError naming the field of a wrong packet', async () => {
    const sim = await createSimulator(await loadConfig({}));
    expect(() => sim.decide({ 'tcp.dstport': 70000 })).toThrow(new SuiteError('packet', 1, 'tcp.dstport', '70000 is out of range (0 to 65535)').detail);
    const err = (() => {
      try {
        // @ts-expect-error a misspelt field does not compile; a JavaScript caller gets the SuiteError
        sim.decide({ 'tcp.dstprot': 22 });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SuiteError);
    expect((err as SuiteError).message).toBe('packet: tcp.dstprot: unknown field (did you mean "tcp.dstport"?)');
  });

  it('names a bad configuration item, and bad ATP options', async () => {
    const bad = { rulesets: [{ name: 'r', phase: 'edge_transit', kind: 'root', rules: [{ expression: 'tcp.dstport == ', action: 'block' }] }] };
    await expect(loadConfig(bad)).rejects.toThrow(SnapshotError);
    await expect(loadConfig(bad)).rejects.toThrow(/^rulesets\[0\]\.rules\[0\]\.expression: Filter parsing error/);
    const options = createSimulator(await loadConfig(DEMO), { atpOptions: { nonsense: 1 } as object });
    await expect(options).rejects.toThrow(ConfigItemError);
    await expect(options).rejects.toThrow('options.nonsense: unknown option');
  });
});

describe('createSimulator: replay', () => {
  it('yields exactly the records `edgesim replay --format ndjson` writes, from a path and from bytes', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    const cli = cliRecords();
    expect(cli.length).toBe(4526);
    expect(await all(sim.replay(CAPTURE))).toEqual(cli);
    // each replay starts from fresh protection state, whatever decide did before
    sim.decide({ 'ip.src': '198.51.100.7', ...SSH });
    expect(await all(sim.replay(new Uint8Array(readFileSync(CAPTURE))))).toEqual(cli);
  });

  it('replays several captures merged by time, as the CLI does, each record naming its file', async () => {
    const dir = tempDir('edgesim-lib-merge-');
    const parts = [path.join(dir, 'a.pcap'), path.join(dir, 'b.pcap')];
    // every other run of 500 frames to b, the rest to a
    const b = ['1-500', '1001-1500', '2001-2500', '3001-3500', '4001-4500'];
    expect(spawnSync('editcap', ['-F', 'pcap', CAPTURE, parts[0]!, ...b]).status).toBe(0);
    expect(spawnSync('editcap', ['-F', 'pcap', '-r', CAPTURE, parts[1]!, ...b]).status).toBe(0);
    const sim = await createSimulator(await loadConfig(DEMO));
    const records = await all(sim.replay(parts));
    const cli = runCli(['replay', ...parts, '--config', DEMO, '--format', 'ndjson']);
    expect(records).toEqual(cli.stdout.trim().split('\n').map((l) => JSON.parse(l) as VerdictRecord));
    expect(records.slice(499, 501).map((r) => [r.file, r.frame])).toEqual([[parts[1], 500], [parts[0], 1]]);
    expect(records.map(({ file: _f, frame: _n, ...r }) => r)).toEqual(cliRecords().map(({ frame: _n, ...r }) => r));
  });

  it('gives the same records however the bytes are cut into chunks', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    const bytes = new Uint8Array(readFileSync(CAPTURE));
    const whole = await all(sim.replay(bytes));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        async function* chunks(): AsyncGenerator<Uint8Array> {
          for (let i = 1; i < at.length; i++) yield bytes.subarray(at[i - 1], at[i]);
        }
        expect(await all(sim.replay(chunks()))).toEqual(whole);
      }),
      { numRuns: 8 },
    );
  });

  it('stops reading when the loop is left, and reports a capture it cannot read', async () => {
    const sim = await createSimulator(await loadConfig(DEMO));
    let seen = 0;
    for await (const r of sim.replay(CAPTURE)) if (++seen === 3 || r.frame > 3) break;
    expect(seen).toBe(3);
    await expect(all(sim.replay(path.join(ROOT, 'no-such.pcap')))).rejects.toThrow('no-such.pcap: cannot open: no such file');
    await expect(all(sim.replay(new TextEncoder().encode('not a capture at all')))).rejects.toThrow(/^capture bytes: /);
  });
});

describe('validate, lint, diff', () => {
  it('validate gives the engine message `edgesim validate` prints', async () => {
    const expr = 'ip.src in {2400:cb00::/2000}';
    const cli = runCli(['validate', expr]);
    expect(await validate(expr)).toEqual({ valid: false, message: cli.stdout });
    expect(await validate('tcp.dstport == 22')).toEqual({ valid: true });
  });

  it('lint and diff give the findings and differences of the commands', async () => {
    const config = await loadConfig(DEMO);
    const cli = runCli(['lint', DEMO, '--json']);
    const { findings } = JSON.parse(cli.stdout) as { findings: Array<Record<string, unknown>> };
    expect(findings.length).toBeGreaterThan(0);
    // the object --json prints, as the README says
    expect(await lint(config)).toEqual(JSON.parse(cli.stdout));
    // a configuration given as an object has no file to place its findings in
    const placeless = await lint(await loadConfig(JSON.parse(readFileSync(DEMO, 'utf8'))));
    expect(placeless).toEqual({ findings: findings.map(({ location: _, ...f }) => f) });
    const after = await loadConfig(JSON.parse(readFileSync(DEMO, 'utf8').replace('tcp.dstport in { 23 2323 }', 'tcp.dstport in { 23 }')));
    const d = await diff(config, after);
    expect(d.same_verdicts).toBe(false);
    expect(d.differences[0]!.before.rule).toBe('block-telnet');
    // only the deciding rule changes: the same verdicts, not the same deciding rules (never "equivalent" beside differences)
    const renamed = await loadConfig(JSON.parse(readFileSync(DEMO, 'utf8').replace('"block-telnet"', '"no-telnet"')));
    const moved = await diff(config, renamed);
    expect(moved).toMatchObject({ same_verdicts: true, same_deciding_rules: false });
    expect(moved.differences.length).toBeGreaterThan(0);
    expect('equivalent' in moved).toBe(false);
  });
});
