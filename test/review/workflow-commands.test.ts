import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendJobSummary, fitSummary, summaryFile } from '../../src/review/job-summary.js';
import { workflowCommand } from '../../src/review/workflow-commands.js';
import { readCommand } from '../helpers/workflow-command.js';

describe('workflowCommand', () => {
  it('writes level, properties in order and message', () => {
    expect(workflowCommand({ level: 'error', file: 'rules/fw.json', line: 12, col: 5, title: 'unreachable', message: 'rule ssh is unreachable' }))
      .toBe('::error file=rules/fw.json,line=12,col=5,title=unreachable::rule ssh is unreachable');
    expect(workflowCommand({ level: 'warning', message: 'no place' })).toBe('::warning::no place');
  });

  it('is one line that the runner reads back to the same values, whatever the text', () => {
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (message, title, file) => {
      const line = workflowCommand({ level: 'notice', message, title, file });
      expect(line).not.toMatch(/[\r\n]/);
      expect(readCommand(line)).toEqual({ command: 'notice', properties: { title, file }, data: message });
    }));
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
