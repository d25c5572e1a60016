// edgesim/vitest: toPass, toDrop and toBeDecidedBy through expect.extend, as a user's test uses them;
// a failure says what happened and shows the packet's trace; `.not` says the opposite.
import { beforeEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createSimulator, loadConfig, type Simulator } from '../../src/lib/index.js';
import { matchers, type EdgesimMatchers } from '../../src/lib/vitest.js';
import { ROOT } from '../helpers/cli.js';

declare module 'vitest' {
  interface Assertion<T = any> extends EdgesimMatchers<T> {}
}

expect.extend(matchers);

const SSH = { 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.10', 'tcp.dstport': 22 };
const WEB = { 'ip.dst': '203.0.113.10', 'tcp.dstport': 443 };
let sim: Simulator;

beforeEach(async () => {
  sim = await createSimulator(await loadConfig(path.join(ROOT, 'examples/demo-snapshot.json')));
});

describe('edgesim/vitest matchers', () => {
  it('pass where the verdict is what they say', () => {
    expect(sim).toDrop(SSH);
    expect(sim).toPass(WEB);
    expect(sim).toBeDecidedBy(SSH, 'ssh-from-office');
    expect(sim).not.toBeDecidedBy(WEB, 'ssh-from-office');
  });

  it('fail with what happened and the trace', () => {
    expect(() => expect(sim).toPass(SSH)).toThrow(/^expected \{"ip\.src":"198\.51\.100\.7",.*\} to pass, but it was drop at firewall by ssh-from-office\n\nframe 1 .*verdict drop[\s\S]*ssh-from-office/);
    expect(() => expect(sim).not.toDrop(SSH)).toThrow('not to be dropped, but it was drop at firewall by ssh-from-office');
    expect(() => expect(sim).toBeDecidedBy(WEB, 'block-telnet')).toThrow('to be decided by block-telnet, but it was pass by allow-web');
  });

  it('say what they take when expect() is given something else', () => {
    expect(() => expect({}).toPass(SSH)).toThrow('toPass: expect() takes a simulator (createSimulator), got object');
  });
});
