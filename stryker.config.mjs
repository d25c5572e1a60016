// StrykerJS settings shared by `npm run mutation` (bench/mutation.ts), which picks the files to
// mutate and the tests related to each; `npx stryker run -m FILE -t TESTS` works with them too,
// but then static mutants never act (bench/vitest-mutation.config.ts says why).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.config.ts', related: false },
  // each mutant runs only the tests that reached its code in the first, unmutated run
  coverageAnalysis: 'perTest',
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // the sandbox builds its own dist/ in vitest's global setup; rooted (/reports, not reports: src/suite/reports is source)
  ignorePatterns: ['/dist', '/bench/results', '/reports', '/tmp'],
  tempDirName: 'tmp/stryker',
  timeoutMS: 10_000,
};
