import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

// CI collects a JSON report per run to print one "tests: N passed, N failed" line.
const reportDir = process.env.TEST_REPORT_DIR

/** The tests that render with Preact: run again against Preact 11 (the peer range takes both). */
const PREACT_TESTS = [
  'src/preact-version.test.ts',
  'src/components*.test.tsx',
  'src/custom-element*.test.ts',
  'src/react.test.ts',
  'src/ui/**/*.test.tsx',
]

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    reporters: reportDir ? ['default', 'json'] : ['default'],
    ...(reportDir ? { outputFile: { json: join(reportDir, 'unit.json') } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: 'preact-10',
          env: { PREACT_MAJOR: '10' },
          // The type tests (test/**/*.test-d.ts) are compile-time assertions: `npm run test:types`.
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'demo/**/*.test.{ts,tsx}'],
          // Here, not above, so the seed and the dist/ check print once (the property tests and
          // the tests of dist/ run in this project only).
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'preact-11',
          include: PREACT_TESTS,
          // `preact` and its subpaths are the devDependency preact11 (npm:preact@^11). Preact 11's
          // own subpaths, the testing library and the string renderer import `preact`
          // themselves: they are processed here too, so all of them get the same copy.
          alias: [{ find: /^preact(\/.*)?$/, replacement: 'preact11$1' }],
          server: {
            deps: { inline: ['preact11', '@testing-library/preact', 'preact-render-to-string'] },
          },
          env: { PREACT_MAJOR: '11' },
        },
      },
    ],
  },
})
