import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

// CI collects a JSON report per run to print one "tests: N passed, N failed" line.
const reportDir = process.env.TEST_REPORT_DIR

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'demo/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Type tests (expectTypeOf) for the public API, checked by tsc on every run.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    reporters: reportDir ? ['default', 'json'] : ['default'],
    ...(reportDir ? { outputFile: { json: join(reportDir, 'unit.json') } } : {}),
  },
})
