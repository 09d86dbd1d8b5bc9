// The real-browser suite: `npm run test:e2e`. Chromium tests share one machine, so files run
// one at a time; each test may take a few seconds of real browser time.
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

const reportDir = process.env.TEST_REPORT_DIR

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    // A condition a browser test waits for may take seconds on a busy machine (the widget alone
    // coalesces events for 1 s): polls wait up to 10 s unless a test says otherwise.
    expect: { poll: { interval: 50, timeout: 10_000 } },
    hookTimeout: 60_000,
    reporters: reportDir ? ['default', 'json'] : ['default'],
    ...(reportDir ? { outputFile: { json: join(reportDir, 'e2e.json') } } : {}),
  },
})
