import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LabelWriter, labelsMisfit } from '../../../src/capture/synth/labels.js';
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

  it('sizes memory by its lines, not by the frame numbers they name (the 61-byte sidecar)', async () => {
    const capture = path.join(dir, 'huge-frame.pcap');
    const line = '{"frame":2147483647,"label":"attack","part":"x","flow":null}\n';
    expect(Buffer.byteLength(line)).toBe(61);
    writeFileSync(labelsPathFor(capture), line);
    const before = process.memoryUsage().arrayBuffers;
    const labels = (await readLabels(capture))!;
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(1 << 20);
    expect([labels.frames, labels.lines, labels.label(2147483647), labels.part(2147483647), labels.label(1), labels.label(2147483646)]).toEqual([
      2147483647, 1, 'attack', 'x', null, null,
    ]);
  });

  it('finds the labels of a file in any frame order; a later line for a frame wins', async () => {
    const lines = fc.sample(fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.constantFrom('legit' as const, 'attack' as const), fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 60 }), 20);
    for (const rows of lines) {
      const capture = path.join(dir, `shuffled${++n}.pcap`);
      writeFileSync(labelsPathFor(capture), rows.map(([frame, label, flow]) => JSON.stringify({ frame, label, part: `p${flow}`, flow })).join('\n'));
      const labels = (await readLabels(capture))!;
      const last = new Map(rows.map(([frame, label, flow]) => [frame, { label, flow }]));
      expect(labels.lines).toBe(rows.length);
      expect(labels.frames).toBe(Math.max(...rows.map((r) => r[0])));
      for (let frame = 0; frame <= 51; frame++) {
        expect(labels.label(frame)).toBe(last.get(frame)?.label ?? null);
        expect(labels.flow(frame)).toBe(last.get(frame)?.flow ?? null);
        expect(labels.part(frame)).toBe(last.has(frame) ? `p${last.get(frame)!.flow}` : null);
      }
    }
  });

  it('does not fit a capture with fewer frames than lines, or whose last frame comes before a labelled one', async () => {
    const capture = path.join(dir, 'fit.pcap');
    writeFileSync(labelsPathFor(capture), [1, 2, 3].map((frame) => JSON.stringify({ frame, label: 'legit', part: 'a', flow: 1 })).join('\n'));
    const dense = (await readLabels(capture))!;
    expect(labelsMisfit(dense, 3, 'l.ndjson')).toBeNull();
    expect(labelsMisfit(dense, 2, 'l.ndjson')).toBe('l.ndjson has 3 label lines for 2 frames; the labels were not scored');
    writeFileSync(labelsPathFor(capture), '{"frame":2147483647,"label":"attack","part":"x","flow":null}\n');
    const far = (await readLabels(capture))!;
    expect(labelsMisfit(far, 4526, 'l.ndjson')).toBe("l.ndjson labels frame 2,147,483,647, past the capture's last frame (4,526); the labels were not scored");
  });
});
