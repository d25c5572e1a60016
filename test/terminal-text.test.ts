import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRunnerCommand, issuedCommand, LineGuard, printable, shownLine, shownParts } from '../src/terminal-text.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** every place a reader might split lines: the runner splits on LF, CR and CRLF; NEL and U+2028/9 to be safe */
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;

/** text that tries to be run: commands, white space a runner trims, the older form, line breaks */
const hostile = fc.array(
  fc.oneof(
    fc.constantFrom('::', ':', '::error::x', '::add-mask::', '::stop-commands::t', '##[', '#', '[', 'add-mask]', ' ', '\t', '\u00a0', '\u3000', '\n', '\r', '\r\n', '\u0085', '\u2028', '\u001b[2J', '\u0000', 'a'),
    fc.string({ unit: 'binary', maxLength: 4 }),
  ),
  { maxLength: 12 },
).map((parts) => parts.join(''));

describe('printable: text from a configuration, safe on a terminal', () => {
  it('writes escape sequences, newlines and overrides as escapes', () => {
    expect(printable('evil\x1b[2J\x1b]0;title\x07')).toBe('evil\\u001b[2J\\u001b]0;title\\u0007');
    expect(printable('line\nPASS all\r\tx')).toBe('line\\nPASS all\\r\\tx');
    expect(printable('\u009b31m \u202egnp.exe \u2028')).toBe('\\u009b31m \\u202egnp.exe \\u2028');
  });

  it("breaks the runner's older command form ##[ wherever it is", () => {
    expect(printable('rule ##[add-mask]secret')).toBe('rule ##\\u005badd-mask]secret');
  });

  it('leaves printable text as it is, including backslashes and non-ASCII letters', () => {
    expect(printable('ssh-from-office: tcp.dstport == 22 and http.host matches "\\d+" — café 日本')).toBe(
      'ssh-from-office: tcp.dstport == 22 and http.host matches "\\d+" — café 日本',
    );
  });

  it('never leaves a control character, changes only control characters and ##[, and is stable', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), hostile), (s) => {
        const out = printable(s);
        expect(out).not.toMatch(CONTROL);
        expect(out).not.toContain('##[');
        expect(printable(out)).toBe(out);
        // the text without its escapes is the input without its control characters
        const bare = (t: string): string => t.replace(/##\\u005b/g, '##[').replace(/\\u[0-9a-f]{4}|\\[nrt]/g, '');
        expect(bare(out)).toBe(bare(s.replace(new RegExp(CONTROL.source, 'g'), '')));
      }),
    );
  });
});

describe('LineGuard: what every printed line passes through', () => {
  const guarded = (chunks: string[]): string => {
    const guard = new LineGuard();
    return chunks.map((c) => guard.pass(c)).join('');
  };

  it('breaks a line a runner would run, in each form it takes', () => {
    expect(guarded(['::error::x\n'])).toBe('\\u003a:error::x\n');
    expect(guarded(['ok\n  ::add-mask::s\n'])).toBe('ok\n  \\u003a:add-mask::s\n');
    expect(guarded(['\u00a0::stop-commands::t'])).toBe('\u00a0\\u003a:stop-commands::t');
    expect(guarded(['a ##[add-mask]s'])).toBe('a ##\\u005badd-mask]s');
    expect(guarded(['a\r::error::x'])).toBe('a\\r::error::x');
    expect(guarded(['\t::error::x'])).toBe('\\t::error::x');
  });

  it('leaves ordinary output alone: a CSS `:root`, an IPv6 address inside a line, JSON', () => {
    for (const text of [':root {\n', 'ip.src in {::1}\n', '{"rule":"::error::x"}\n', '  "a": "b",\n', 'edgesim: x.json: y\n']) {
      expect(guarded([text])).toBe(text);
    }
  });

  it('follows a line across writes: a `::` or `##[` split over two chunks is broken all the same', () => {
    expect(guarded(['  ', '::error::x\n'])).toBe('  \\u003a:error::x\n');
    expect(guarded([':', ':error::x\n'])).toBe('\\u003a:error::x\n');
    expect(guarded(['a #', '#', '[add-mask]s'])).toBe('a ##\\u005badd-mask]s');
    expect(guarded(['x', '::error::y\n'])).toBe('x::error::y\n');
  });

  it('lets through a workflow command edgesim issued, and only that line', () => {
    const line = issuedCommand('::error file=a.json,line=3::rule r is unreachable');
    expect(guarded([`${line}\n::error::forged\n`])).toBe(`${line}\n\\u003a:error::forged\n`);
  });

  it('over any text in any chunks: no line a runner would run, no control character but the line feed', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 6 }), (chunks) => {
        const out = guarded(chunks);
        expect(out).not.toMatch(CONTROL_BUT_LF);
        expect(out.split(LINE_BREAK).filter(isRunnerCommand)).toEqual([]);
      }),
    );
  });

  it('changes nothing in text that needs no change, however it is cut', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '{', '"', '#', ':', 'x') }), fc.integer({ min: 0, max: 40 }), (text, cut) => {
        const whole = guarded([text]);
        fc.pre(whole === text);
        const at = Math.min(cut, text.length);
        // a lone `:` ending a chunk at a line's start is escaped (what follows is not known yet)
        fc.pre(!/(^|\n)[ ]*:$/.test(text.slice(0, at)));
        expect(guarded([text.slice(0, at), text.slice(at)])).toBe(text);
      }),
    );
  });
});

describe('shownLine: one line of input echoed in a message', () => {
  it('is the line itself when nothing in it can be run or obeyed', () => {
    expect(shownLine('tcp.dstport == 22 and ip.src in {::1}')).toBe('tcp.dstport == 22 and ip.src in {::1}');
  });

  it('escapes what a runner or a terminal would act on, one part per code point', () => {
    expect(shownLine('  ::error::x ##[y\u001b')).toBe('  \\u003a:error::x ##\\u005by\\u001b');
    expect(shownParts('é\n::')).toEqual(['é', '\\n', ':', ':']);
    expect(shownParts('::')).toEqual(['\\u003a', ':']);
  });
});
