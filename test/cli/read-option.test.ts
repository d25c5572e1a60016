// `-r FILE`, tcpdump's way to name the capture, stands for the capture argument of every command that
// takes one: the same output as the argument gives, in any of its spellings; never taken after `--`.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { readAsArgument } from '../../src/cli/options.js';
import { runCli } from '../helpers/cli.js';

const DEMO = 'examples/demo.pcap';
const SNAP = 'examples/demo-snapshot.json';

/** each command that takes a capture, with the rest of a command line that runs it */
const COMMANDS: Array<[string, string[]]> = [
  ['replay', ['--config', SNAP, '--format', 'csv']],
  ['inspect', ['--limit', '3']],
  ['match', ['tcp.dstport == 23']],
  ['diff', ['--config', SNAP, '--against', SNAP]],
  ['bench', ['--config', SNAP, '--runs', '1', '--no-peers', '--json']],
  ['trace', ['--config', SNAP, '--frame', '5']],
];

describe('-r FILE', () => {
  it.each(COMMANDS)('%s -r FILE gives what the capture argument gives', (command, rest) => {
    const plain = runCli([command, DEMO, ...rest]);
    const read = runCli([command, ...rest, '-r', DEMO]);
    expect(read.status, read.stderr).toBe(plain.status);
    const comparable = (text: string): string => text.replace(/"(packets_per_second|ns_per_\w+|ns_total|share|[\w_]*seconds?)": *[\d.e+-]+/g, '"$1": 0');
    if (command === 'bench') expect(Object.keys(JSON.parse(read.stdout) as object)).toEqual(Object.keys(JSON.parse(plain.stdout) as object));
    else expect(comparable(read.stdout)).toBe(comparable(plain.stdout));
  });

  it('is read in every spelling, only before `--`, by the commands that take a capture', () => {
    const program = buildProgram();
    const argv = (...args: string[]): string[] => ['node', 'edgesim', ...args];
    for (const spelling of [['-r', 'a.pcap'], ['-ra.pcap'], ['--read', 'a.pcap'], ['--read=a.pcap']]) {
      expect(readAsArgument(program, argv('match', ...spelling, 'tcp'))).toEqual(argv('match', 'a.pcap', 'tcp'));
    }
    expect(readAsArgument(program, argv('match', '--', '-r', 'x'))).toEqual(argv('match', '--', '-r', 'x'));
    expect(readAsArgument(program, argv('validate', '-r', 'x'))).toEqual(argv('validate', '-r', 'x'));
    const withRead = program.commands.filter((c) => c.options.some((o) => o.long === '--read')).map((c) => c.name());
    expect(withRead.sort()).toEqual(COMMANDS.map(([name]) => name).sort());
  });

  it('and the capture argument as well are two captures, merged by time: the same one twice is refused', () => {
    const r = runCli(['replay', '-r', DEMO, DEMO, '--config', SNAP]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`edgesim: ${DEMO}: the same capture is given twice; give each capture once\n`);
  });
});
