import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendJobSummary, fitSummary, SUMMARY_LIMIT, summaryFile } from '../../src/review/job-summary.js';
import { workflowCommand } from '../../src/review/workflow-commands.js';
import { readCommand } from '../helpers/workflow-command.js';

describe('workflowCommand', () => {
  it('writes level, properties in order and message', () => {
    expect(workflowCommand({ level: 'error', file: 'rules/fw.json', line: 12, col: 5, title: 'unreachable', message: 'rule ssh is unreachable' }))
      .toBe('::error file=rules/fw.json,line=12,col=5,title=unreachable::rule ssh is unreachable');
    expect(workflowCommand({ level: 'warning', message: 'no place' })).toBe('::warning::no place');
  });

  it('is one line that the runner reads back to the same values, `##[` as `##\\u005b`, whatever the text', () => {
    // fc.string() is printable ASCII: of what `printable` escapes, only `##[` (the runner's older
    // command form) can occur, and the line holds it as `##\u005b`, which the runner reads as is
    const shown = (text: string): string => text.replace(/##\[/g, '##\\u005b');
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (message, title, file) => {
      const line = workflowCommand({ level: 'notice', message, title, file });
      expect(line).not.toMatch(/[\r\n]/);
      expect(line).not.toContain('##[');
      expect(readCommand(line)).toEqual({ command: 'notice', properties: { title: shown(title), file: shown(file) }, data: shown(message) });
    }));
  });

  it('writes the `[` of `##[` as `\\u005b`, in the message and in properties, so the line holds no older-form command', () => {
    // the property's counterexample ["##[", "", ""] (seed 1925655680)
    expect(workflowCommand({ level: 'notice', message: '##[', title: '', file: '' })).toBe('::notice title=,file=::##\\u005b');
    expect(readCommand(workflowCommand({ level: 'notice', message: 'a ##[add-mask]s', title: '##[', file: 'x##[y' })))
      .toEqual({ command: 'notice', properties: { title: '##\\u005b', file: 'x##\\u005by' }, data: 'a ##\\u005badd-mask]s' });
  });
});

describe('job summary', () => {
  it('goes to --summary, else to $GITHUB_STEP_SUMMARY, else nowhere', () => {
    expect(summaryFile('a.md', { GITHUB_STEP_SUMMARY: 'b.md' })).toBe('a.md');
    expect(summaryFile(undefined, { GITHUB_STEP_SUMMARY: 'b.md' })).toBe('b.md');
    expect(summaryFile(undefined, { GITHUB_STEP_SUMMARY: '' })).toBeUndefined();
  });

  it('appends, keeping what earlier steps wrote', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'summary-')), 'step summary.md');
    appendJobSummary('# lint\n', file);
    appendJobSummary('# test', file);
    expect(readFileSync(file, 'utf8')).toBe('# lint\n\n# test\n\n');
  });

  it('counts what the file already holds: the step\'s summary stays under 1 MiB, and a full file gets nothing but a warning (issue 34)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'summary-')), 'step.md');
    writeFileSync(file, 'x'.repeat(700 * 1024));
    const report = Array.from({ length: 20_000 }, (_, i) => `| row ${i} | ${'y'.repeat(20)} |`).join('\n');
    expect(appendJobSummary(report, file)).toBeUndefined();
    const size = statSync(file).size;
    expect(size).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(size).toBeGreaterThan(SUMMARY_LIMIT - 2048);
    expect(readFileSync(file, 'utf8')).toMatch(/_… [\d,]+ more lines cut to keep the summary under GitHub's 1 MiB limit\._\n\n$/);
    writeFileSync(file, 'x'.repeat(SUMMARY_LIMIT - 1100));
    expect(appendJobSummary(report, file)).toBe(`${file}: the job summary already holds ${(SUMMARY_LIMIT - 1100).toLocaleString('en-US')} bytes, too near GitHub's 1 MiB limit for this report (GitHub would drop the whole summary); nothing appended`);
    expect(statSync(file).size).toBe(SUMMARY_LIMIT - 1100);
  });

  it('fits any text under the limit, cut at a line end, saying how many lines were cut', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((l) => !l.includes('\n')), { maxLength: 60 }), fc.integer({ min: 200, max: 800 }), (lines, limit) => {
      const text = lines.join('\n');
      const fitted = fitSummary(text, limit);
      if (Buffer.byteLength(`${text}\n\n`) <= limit) {
        expect(fitted).toBe(`${text}\n\n`);
        return;
      }
      expect(Buffer.byteLength(fitted!)).toBeLessThanOrEqual(limit);
      const cut = /_… (\d+) more lines? cut/.exec(fitted!);
      expect(cut).not.toBeNull();
      const kept = fitted!.slice(0, fitted!.lastIndexOf('\n_…')).split('\n').slice(0, -1);
      expect(kept).toEqual(text.split('\n').slice(0, kept.length));
      expect(kept.length + Number(cut![1])).toBe(text.split('\n').length);
    }));
  });
});
