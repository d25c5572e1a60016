import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LabelWriter } from '../../../src/capture/synth/labels.js';
import { LabelsError, labelsPathFor, readLabels } from '../../../src/capture/synth/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

describe('label sidecar', () => {
  it('round-trips any sequence of labels, part names and flow ids', async () => {
    const line = fc.record({
      label: fc.constantFrom('legit' as const, 'attack' as const),
      part: fc.constantFrom('web', 'syn-flood', 'naïve "quoted" part', 'dns'),
      flow: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 0x7fffffff })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 300 }), async (lines) => {
        const capture = path.join(dir, `rt${++n}.pcap`);
        const w = LabelWriter.open(labelsPathFor(capture));
        const tags = new Map<string, number>();
        for (const l of lines) {
          const key = `${l.label}/${l.part}`;
          if (!tags.has(key)) tags.set(key, w.tag(l.label, l.part));
          w.write(tags.get(key)!, l.flow);
        }
        w.close();
        const text = readFileSync(labelsPathFor(capture), 'utf8');
        text.split('\n').filter(Boolean).forEach((t, i) => {
          expect(JSON.parse(t)).toEqual({ frame: i + 1, label: lines[i]!.label, part: lines[i]!.part, flow: lines[i]!.flow || null });
        });
        const labels = (await readLabels(capture))!;
        expect(labels.frames).toBe(lines.length);
        lines.forEach((l, i) => {
          expect(labels.label(i + 1)).toBe(l.label);
          expect(labels.part(i + 1)).toBe(l.part);
          expect(labels.flow(i + 1)).toBe(l.flow || null);
        });
        expect(labels.label(lines.length + 1)).toBeNull();
        expect(labels.label(0)).toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it('is null when a capture has none', async () => {
    expect(await readLabels(path.join(dir, 'none.pcap'))).toBeNull();
  });

  it('keeps frames without a line unlabelled', async () => {
    const capture = path.join(dir, 'sparse.pcap');
    writeFileSync(labelsPathFor(capture), '{"frame":3,"label":"attack","part":"x","flow":null}\n\n{"frame":5000,"label":"legit","part":"y","flow":7}\n');
    const labels = (await readLabels(capture))!;
    expect([labels.frames, labels.label(1), labels.flow(1), labels.part(2), labels.label(3), labels.flow(5000), labels.part(5000)]).toEqual([5000, null, null, null, 'attack', 7, 'y']);
    expect(labels.parts).toEqual(['x', 'y']);
  });

  it.each([
    ['{"frame":1,"label":"legit","part":"a","flow":1}\nnot json\n', 2, 'not a JSON object'],
    ['{"frame":0,"label":"legit","part":"a","flow":1}\n', 1, '"frame" must be a frame number (1, 2, ...)'],
    ['{"frame":1,"label":"good","part":"a","flow":1}\n', 1, '"label" must be "legit" or "attack"'],
    ['{"frame":1,"label":"legit","part":3,"flow":1}\n', 1, '"part" must be a string'],
    ['{"frame":1,"label":"legit","part":"a","flow":"x"}\n', 1, '"flow" must be a flow id or null'],
    ['[1]\n', 1, '"frame" must be a frame number (1, 2, ...)'],
  ])('names the file and line of a bad line: %j', async (text, line, message) => {
    const capture = path.join(dir, `bad${++n}.pcap`);
    writeFileSync(labelsPathFor(capture), text);
    const err = await readLabels(capture).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LabelsError);
    expect((err as Error).message).toBe(`${labelsPathFor(capture)}:${line}: ${message}`);
  });
});
