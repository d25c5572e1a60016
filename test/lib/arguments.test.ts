// The library's arguments of the wrong kind are the documented UserError naming the function and the
// argument — never a TypeError from inside, and never silently the default (issue 34): an unknown
// scheme, a number for an expression, null for a Config or options, a BigInt, Symbol, function,
// undefined or NaN as a packet value, a capture that is neither a path nor bytes.
import { describe, expect, it } from 'vitest';
import { createSimulator, diff, lint, loadConfig, synth, validate, SuiteError, UsageError, UserError } from '../../src/lib/index.js';

const config = await loadConfig('examples/demo-snapshot.json');

async function refusal(run: () => unknown): Promise<UserError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a UserError');
}

describe('library arguments', () => {
  it('validate: an unknown scheme, a non-string expression, options that are not an object', async () => {
    expect((await refusal(() => validate('tcp.dstport == 22', { scheme: 'filters' as never }))).message).toBe('validate: scheme must be "firewall" or "filter", got "filters"');
    expect(await refusal(() => validate(42 as never))).toBeInstanceOf(UsageError);
    expect((await refusal(() => validate(42 as never))).message).toBe('validate: the expression must be a string, got a number');
    expect((await refusal(() => validate('x', null as never))).message).toBe('validate: the options must be an object, got null');
    expect(await validate('tcp.dstport == 22', { scheme: 'filter' })).toEqual({ valid: true });
  });

  it('createSimulator, lint and diff: null for a Config or for the options', async () => {
    expect((await refusal(() => createSimulator(null as never))).message).toBe('createSimulator: the configuration must be a Config (what loadConfig returns), got null');
    expect((await refusal(() => createSimulator(config, null as never))).message).toBe('createSimulator: the options must be an object, got null');
    expect((await refusal(() => lint(null as never))).message).toBe('lint: the configuration must be a Config (what loadConfig returns), got null');
    expect((await refusal(() => lint({ snapshot: 'x' } as never))).message).toMatch(/^lint: the configuration must be a Config/);
    expect((await refusal(() => diff(config, 7 as never))).message).toBe('diff: after must be a Config (what loadConfig returns), got a number');
    expect((await refusal(() => loadConfig(['examples/demo-snapshot.json', 3] as never))).message).toBe('loadConfig: file 2 must be a string, got a number');
    expect((await refusal(() => synth('syn-flood', 42 as never))).message).toBe('synth: out must be a string, got a number');
  });

  it('decide and trace: a packet value that is not a string, finite number, boolean or null names its field', async () => {
    const sim = await createSimulator(config);
    for (const [value, words] of [[22n, 'a bigint'], [Symbol('x'), 'a symbol'], [() => 22, 'a function'], [undefined, 'undefined'], [Number.NaN, 'NaN'], [Infinity, 'Infinity']] as const) {
      const err = await refusal(() => sim.decide({ 'tcp.dstport': value } as never));
      expect(err).toBeInstanceOf(SuiteError);
      expect(err.message).toBe(`packet: tcp.dstport: ${words} is not a field value (a string, a number or a boolean)`);
    }
    expect((await refusal(() => sim.trace({ 'tcp.dstport': 22n } as never))).message).toMatch(/^packet: tcp\.dstport: a bigint/);
    // the refused packets were not decided: the conversation goes on at frame 1
    expect(sim.decide({ 'tcp.dstport': 22, 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.5' })).toMatchObject({ frame: 1, verdict: 'drop' });
  });

  it('replay: a capture that is neither a path, bytes nor chunks', async () => {
    const sim = await createSimulator(config);
    const err = await refusal(async () => {
      for await (const r of sim.replay(42 as never)) return r;
    });
    expect(err.message).toBe('replay: the capture must be a path, several paths, a Uint8Array or an async iterable of Uint8Array chunks, got a number');
    // several captures are paths; an empty list or a list of something else is no capture
    for (const bad of [[], [42], ['a.pcap', new Uint8Array(4)]]) {
      const e = await refusal(async () => {
        for await (const r of sim.replay(bad as never)) return r;
      });
      expect(e.message).toMatch(/^replay: the capture must be a path, several paths, .*, got an? /);
    }
  });
});
