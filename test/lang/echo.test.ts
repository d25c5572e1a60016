// The line a parse error echoes: as the engine echoes it for ordinary input (byte for byte, tabs and a
// CRLF's CR included), and escaped, the carets moved under the escaped span, when the line holds what
// a CI runner would run (`::error::…`, `##[…]`) or a control character a terminal would obey.
import { describe, expect, it } from 'vitest';
import { legacyMessage, validateExpression } from '../../src/lang/index.js';

const message = (expr: string): string => validateExpression(expr, 'rule')!.message;

describe('the echoed line of a parse error', () => {
  it('is the engine’s for ordinary input, an IPv6 address starting a line and a tab included', () => {
    expect(message('ip.src==34')).toBe("Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax\n");
    expect(message('ip.src in {\n  1::/200\n}')).toBe('Filter parsing error (2:3):\n  1::/200\n  ^^^^^^^ invalid length for network: Network length 200 is too long for Ipv6 (maximum: 128)\n');
    expect(message('ssl\tand ssl')).toBe('Filter parsing error (1:1):\nssl\tand ssl\n^^^ unknown identifier\n');
    expect(message('ip.src==34\r\n')).toBe("Filter parsing error (1:9):\nip.src==34\r\n        ^^ couldn't parse address in network: invalid IP address syntax\n");
  });

  it('is escaped when a runner would run it, with the carets under the escaped span', () => {
    expect(message('::error::pwned')).toBe('Filter parsing error (1:1):\n\\u003a:error::pwned\n^^^^^^^^^^^^^^^^^^^ expected identifier character\n');
    const m = message('tcp.dstport == 1 and\n  ::add-mask::secret');
    expect(m).toBe('Filter parsing error (2:3):\n  \\u003a:add-mask::secret\n  ^^^^^^^^^^^^^^^^^^^^^^^ expected identifier character\n');
  });

  it('is escaped when it holds a control character, the carets counted in the escaped text', () => {
    const m = message('ip.src.country == "\u001b[2J" and xyz');
    const [, line, carets] = m.split('\n');
    expect(line).toBe('ip.src.country == "\\u001b[2J" and xyz');
    expect(carets).toBe(`${' '.repeat(34)}^^^ unknown identifier`);
    expect(line!.slice(34)).toBe('xyz');
  });

  it('breaks ##[ anywhere in the line', () => {
    expect(message('tcp.dstport == "##[add-mask]x"')).toBe('Filter parsing error (1:16):\ntcp.dstport == "##\\u005badd-mask]x"\n               ^^^^^^^^^^^^^^^^^^^^ expected digit\n');
  });

  it('in the older message shape too, where the expression sits in backticks', () => {
    const err = validateExpression('\u001b]0;x\u0007 == 1', 'rule')!;
    expect(legacyMessage('\u001b]0;x\u0007 == 1', err)).toBe(`Filter parsing error:\n\`\\u001b]0;x\\u0007 == 1\`\n  ${'^'.repeat(21)} expected identifier character\n`);
    const ordinary = validateExpression('::1 == 1', 'rule')!;
    expect(legacyMessage('::1 == 1', ordinary)).toBe('Filter parsing error:\n`::1 == 1`\n  ^^^^^^^^ expected identifier character\n');
  });

  it('in a regular expression’s error, echoed escaped with its caret', () => {
    const m = validateExpression('ip.src.country matches "\n::error::(x"', 'rule')!;
    expect(m.message).toContain('regex parse error:\n    \\n::error::(x\n');
    expect(m.message).not.toMatch(/^\s*::/m);
  });
});
