// The benchmark suites `npm run bench` runs, in order. Each module exports `suite: BenchSuite`.
import type { BenchSuite } from './types.js';

export const suites: Array<[string, () => Promise<{ suite: BenchSuite }>]> = [
  ['lang', () => import('./lang.js')],
  ['net', () => import('./net.js')],
  ['atp', () => import('./atp.js')],
  ['capture', () => import('./capture.js')],
  ['replay', () => import('./replay.js')],
  ['lookups', () => import('./lookups.js')],
  ['rules', () => import('./many-rules.js')],
  ['report', () => import('./report.js')],
  ['api', () => import('./api.js')],
  ['synth', () => import('./synth.js')],
  ['suite', () => import('./suite.js')],
  ['analysis', () => import('./analysis.js')],
  ['lsp', () => import('./lsp.js')],
  ['compare', () => import('./compare-noise.js')],
];
