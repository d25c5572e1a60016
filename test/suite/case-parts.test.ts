// A suite of the usual shape is read a case at a time (case-parts.ts); what each case reads as, and
// every line a suite error would name, must be exactly what reading the whole document gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseParts, LIST_PART, packetParts } from '../../src/suite/case-parts.js';
import { parseSuiteText, readSuiteText, type Located } from '../../src/suite/source.js';

/** the message of what `read` throws ('' when it throws nothing) */
function error(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

/** Every value under `at` with its key and line, depth first. */
function shape(at: Located): unknown[] {
  const here = [at.key, at.line, at.type];
  if (at.type === 'map') return [here, ...at.entries().flatMap(([, child]) => shape(child))];
  if (at.type === 'list') return [here, ...at.items().flatMap(shape)];
  return [[...here, at.value]];
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const filler = fc.constantFrom('', '\n', '# a comment\n', '\n  # indented comment\n\n');

/** One case in one of the styles people write, at list indentation `n`. */
const caseText = (n: number): fc.Arbitrary<string> => {
  const pad = ' '.repeat(n);
  return fc
    .tuple(word, fc.integer({ min: 0, max: 65535 }), fc.constantFrom('flow', 'block', 'scalar', 'list'), filler)
    .map(([name, port, style, after]) => {
      const head = `${pad}- name: ${name}\n`;
      const body =
        style === 'flow'
          ? `${pad}  packet: {tcp.dstport: ${port}, ip.src: "10.0.0.1"}\n`
          : style === 'block'
            ? `${pad}  packet:\n${pad}    tcp.dstport: ${port}\n\n${pad}    # inside\n${pad}    tcp.flags.syn: true\n`
            : style === 'scalar'
              ? `${pad}  note: |\n${pad}    - not an item\n${pad}    cases: neither\n${pad}  packet: {}\n`
              : `${pad}  packets:\n${pad}  - {tcp.dstport: ${port}}\n${pad}  -\n${pad}    tcp.dstport: 1\n`;
      return `${head}${body}${pad}  expect: {verdict: pass}\n${after}`;
    });
};

const suiteText = fc
  .tuple(fc.constantFrom(0, 2, 4), fc.boolean(), fc.boolean(), filler)
  .chain(([n, before, after, gap]) =>
    fc.array(caseText(n), { minLength: 1, maxLength: 8 }).map(
      (cases) => `${before ? 'description: first\n' : ''}config: c.json\ncases:   # the cases\n${gap}${cases.join('')}${after && !before ? '\ndescription: >\n  last\n' : ''}`,
    ),
  );

describe('a suite read a case at a time', () => {
  it('reads every case, key and line exactly as the whole document does', () => {
    fc.assert(
      fc.property(suiteText, (text) => {
        const whole = parseSuiteText('s.yaml', text);
        const split = readSuiteText('s.yaml', text);
        expect(split.cases).not.toBeNull();
        const cases = [...split.cases!.each()];
        expect(cases.map(shape)).toEqual(whole.entries().find(([k]) => k === 'cases')![1].items().map(shape));
        // the other top-level keys keep their lines (`cases` itself is left empty in the head)
        const lines = (top: Located): unknown[] => top.entries().map(([k, at]) => (k === 'cases' ? k : [k, at.line, at.value]));
        expect(lines(split.top)).toEqual(lines(whole));
      }),
    );
  });

  it('names the same line for a mistake inside a case', () => {
    const text = 'config: c.json\ncases:\n  - name: a\n    packet: {}\n    expect: {verdict: pass}\n  - name: b\n    packet: {tcp.dstport: 1\n    expect: {verdict: pass}\n';
    expect(error(() => [...readSuiteText('s.yaml', text).cases!.each()])).toBe(error(() => parseSuiteText('s.yaml', text)));
  });

  it('reads a suite whole when it has anchors, another shape, or a second cases key', () => {
    expect(caseParts('config: c.json\ncases:\n  - name: a\n    packet: &p {}\n  - name: b\n    packet: *p\n')).toBeNull();
    expect(caseParts('{"config": "c.json", "cases": [{"name": "a"}]}')).toBeNull();
    expect(caseParts('config: c.json\ncases: [{name: a}]\n')).toBeNull();
    expect(caseParts('config: c.json\ncases:\n  - name: a\ncases:\n  - name: b\n')).toBeNull();
  });

  it("reads a case's long packets list in parts, each packet, key and line as the whole document has them", () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 2, 4), fc.constantFrom(0, 2), fc.integer({ min: LIST_PART + 1, max: 3 * LIST_PART }), fc.boolean(), (n, deeper, count, last) => {
        const pad = ' '.repeat(n);
        const itemPad = ' '.repeat(n + 2 + deeper);
        const packets = Array.from({ length: count }, (_, i) =>
          i % 7 === 3 ? `${itemPad}-\n${itemPad}  tcp.dstport: ${i}\n\n${itemPad}  # inside\n${itemPad}  time: ${i}\n` : `${itemPad}- {tcp.dstport: ${i}, time: ${i}}\n`,
        ).join('');
        const long = `${pad}- name: long\n${pad}  packets:   # many\n${packets}${last ? '' : `${pad}  expect: {verdict: pass}\n`}`;
        const short = `${pad}- name: short\n${pad}  packets:\n${itemPad}- {tcp.dstport: 1}\n${pad}  expect: {verdict: pass}\n`;
        const text = `config: c.json\ncases:\n${short}${long}${last ? '' : short}`;
        const split = readSuiteText('s.yaml', text);
        expect(packetParts(text.slice(text.indexOf(`${pad}- name: long`)))).not.toBeNull();
        expect([...split.cases!.each()].map(shape)).toEqual(parseSuiteText('s.yaml', text).entries().find(([k]) => k === 'cases')![1].items().map(shape));
      }),
      { numRuns: 12 },
    );
  });

  it("holds a long packets list's place in one line and a run of LIST_PART packets in one part, however long the list", () => {
    const long = (count: number): string => `- name: long\n  packets:\n${'    - {tcp.dstport: 1}\n'.repeat(count)}  expect: {verdict: pass}\n`;
    for (const count of [LIST_PART + 1, 20 * LIST_PART + 3]) {
      const split = packetParts(long(count))!;
      expect(split.head).toBe('- name: long\n  packets:\n    []\n  expect: {verdict: pass}\n');
      expect(split.gap).toEqual({ after: 3, lines: count - 1 });
      expect(split.parts).toHaveLength(Math.ceil(count / LIST_PART));
    }
  });

  it('names the same line and key for a mistake in a packet of a long list', () => {
    const packets = Array.from({ length: 2 * LIST_PART + 5 }, (_, i) => (i === LIST_PART + 7 ? '      - {tcp.dstport: !!binary aGk=}\n' : `      - {tcp.dstport: ${i}}\n`)).join('');
    const text = `config: c.json\ncases:\n  - name: long\n    packets:\n${packets}    expect: {verdict: pass}\n`;
    const message = error(() => [...readSuiteText('s.yaml', text).cases!.each()].map((c) => c.entries().find(([k]) => k === 'packets')![1].items()));
    expect(message).toBe(error(() => parseSuiteText('s.yaml', text)));
    expect(message).toMatch(new RegExp(`^s\\.yaml:\\d+: cases\\[0\\]\\.packets\\[${LIST_PART + 7}\\]\\.tcp\\.dstport: !!binary`));
  });
});
