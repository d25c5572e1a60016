// The charting library the page embeds: uPlot (MIT, ~50 KB minified, fast with 100k points), read
// from the installed package when a report is rendered, so the page needs no network and the
// library's version is the one package.json pins.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ChartLibrary {
  script: string;
  style: string;
}

let cached: ChartLibrary | undefined;

export function chartLibrary(): ChartLibrary {
  if (cached === undefined) {
    const require = createRequire(import.meta.url);
    cached = {
      script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
      style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
    };
  }
  return cached;
}
