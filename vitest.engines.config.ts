// The engine suite: `npm run test:engines` runs it once per engine (REFERRAL_ENGINE = chromium,
// firefox, webkit), each run with a JSON report of its own. Files run one at a time: each launches
// its browser, and a page waits on conditions that may take seconds on a busy machine.
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

const reportDir = process.env.TEST_REPORT_DIR
const engine = process.env.REFERRAL_ENGINE ?? 'chromium'

export default defineConfig({
  test: {
    include: ['test/engines/**/*.engine.ts'],
    globalSetup: ['test/engines/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { interval: 50, timeout: 15_000 } },
    reporters: reportDir ? ['default', 'json'] : ['default'],
    ...(reportDir ? { outputFile: { json: join(reportDir, `engine-${engine}.json`) } } : {}),
  },
})
