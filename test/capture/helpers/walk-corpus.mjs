// Child process of corpus.test.ts: reads every file named on stdin (one per line) with the built
// reader, checks each packet's offsets stay inside its frame, renders its fields, and prints one
// JSON line per file. "start" lines come first, so a hang is pinned on the file that started last.
import { readFileSync } from 'node:fs';
import { readCapture, CaptureError } from '../../../dist/capture/reader.js';
import { recordFields } from '../../../dist/fields/render.js';

function offsetProblem(r) {
  const lo = r.dataOff;
  const hi = r.dataOff + r.capLen;
  if (r.capLen < 0 || hi > r.data.length) return 'frame outside its buffer';
  if (r.present & 1 && !(lo <= r.l3Off && r.l3Off <= r.l3End && r.l3End <= hi)) return `ip view ${r.l3Off}-${r.l3End} outside frame ${lo}-${hi}`;
  if (r.present & (8 | 16 | 32) && !(r.l3Off <= r.l4Off && r.l4Off <= r.l4End && r.l4End <= r.l3End)) return `transport view ${r.l4Off}-${r.l4End} outside ip ${r.l3Off}-${r.l3End}`;
  return '';
}

const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const file of files) {
  process.stdout.write(`${JSON.stringify({ start: file })}\n`);
  let problems = [];
  try {
    const info = await readCapture(file, (rec) => {
      const p = offsetProblem(rec);
      if (p !== '' && problems.length < 5) problems.push(`frame ${rec.frame}: ${p}`);
      recordFields(rec);
    });
    process.stdout.write(`${JSON.stringify({ file, outcome: 'read', packets: info.packets, warnings: info.warnings, problems })}\n`);
  } catch (err) {
    const outcome = err instanceof CaptureError ? 'capture-error' : 'crash';
    process.stdout.write(`${JSON.stringify({ file, outcome, message: String(err?.stack ?? err), problems })}\n`);
  }
}
