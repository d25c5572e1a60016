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

  it('makes a table with a header, its rule and a row per row', () => {
    expect(markdownTable(['A', 'B'], [[markdownText('x|y'), '1']])).toEqual(['| A | B |', '| --- | --- |', '| x\\|y | 1 |']);
  });
});
