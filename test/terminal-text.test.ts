import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable } from '../src/terminal-text.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('printable: text from a configuration, safe on a terminal', () => {
  it('writes escape sequences, newlines and overrides as escapes', () => {
    expect(printable('evil\x1b[2J\x1b]0;title\x07')).toBe('evil\\u001b[2J\\u001b]0;title\\u0007');
    expect(printable('line\nPASS all\r\tx')).toBe('line\\nPASS all\\r\\tx');
    expect(printable('\u009b31m \u202egnp.exe \u2028')).toBe('\\u009b31m \\u202egnp.exe \\u2028');
  });

  it('leaves printable text as it is, including backslashes and non-ASCII letters', () => {
    expect(printable('ssh-from-office: tcp.dstport == 22 and http.host matches "\\d+" — café 日本')).toBe(
      'ssh-from-office: tcp.dstport == 22 and http.host matches "\\d+" — café 日本',
    );
  });

  it('never leaves a control character, changes only control characters, and is stable', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = printable(s);
        expect(out).not.toMatch(CONTROL);
        expect(printable(out)).toBe(out);
        expect(out.replace(/\\u[0-9a-f]{4}|\\[nrt]/g, '')).toBe(s.replace(new RegExp(CONTROL.source, 'g'), '').replace(/\\u[0-9a-f]{4}|\\[nrt]/g, ''));
      }),
    );
  });
});
