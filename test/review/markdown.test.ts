// Text inside Markdown: one line, no mark of its own (a table's `|`, emphasis, a link, HTML), and
// nothing lost: unescaping gives the text back as a terminal shows it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownTable, markdownText } from '../../src/review/markdown.js';
import { printable } from '../../src/terminal-text.js';

const unescape = (md: string): string => md.replace(/&#8203;/g, '').replace(/\\(.)/g, '$1').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('markdownText', () => {
  it('is one line whose marks are all escaped, and unescapes to the printable text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('|', '*', '_', '`', '[', ']', '<', '>', '&', '\\', '~', '\n', '\r', 'a', ' ', ';', '@', '#', '1', ':', '/', 'w', '.') }), (text) => {
        const md = markdownText(text);
        expect(md).not.toMatch(/[\n\r<>]/);
        // every mark is preceded by an escaping backslash
        expect(md.replace(/\\[\\`*_[\]|~]/g, '')).not.toMatch(/[\\`*_[\]|~]/);
        expect(unescape(md)).toBe(printable(text));
      }),
    );
  });

  it('mentions no one and links nothing by itself: @team, #12, bare URLs and e-mail addresses are broken by a zero-width space (issue 34)', () => {
    const md = markdownText('allow @org/security-team see https://evil.example/x www.example.com ops@example.com fw#12 (#3)');
    // as GitHub reads it: the entity is an invisible character between the marks
    const shown = md.replace(/&#8203;/g, '\u200b');
    expect(shown).not.toMatch(/@\w/);
    expect(shown).not.toMatch(/:\/\//);
    expect(shown).not.toMatch(/www\./i);
    expect(shown).not.toMatch(/#\d/);
    expect(unescape(md)).toBe('allow @org/security-team see https://evil.example/x www.example.com ops@example.com fw#12 (#3)');
  });

  it('makes a table with a header, its rule and a row per row', () => {
    expect(markdownTable(['A', 'B'], [[markdownText('x|y'), '1']])).toEqual(['| A | B |', '| --- | --- |', '| x\\|y | 1 |']);
  });
});
