// The one accepted way for a test not to run: the machine lacks what it needs (a Chromium without
// a back/forward cache, say). platformSkip records the reason in the test's meta, which vitest's
// JSON report carries into TEST_REPORT_DIR; scripts/test-summary.mjs lists each platform skip
// with its reason and fails the run on any other skipped test.
import type { TestContext } from 'vitest'

declare module 'vitest' {
  interface TaskMeta {
    /** Why this machine cannot run the test (set by platformSkip only). */
    platformSkip?: string
  }
}

/** Skips the running test because of the platform, saying why. */
export function platformSkip(context: TestContext, reason: string): never {
  context.task.meta.platformSkip = reason
  return context.skip(`platform: ${reason}`)
}
