// For the tests of the widget's storage (src/queue/*storage.test.ts): storage the browser blocks,
// and console.warn spied on in each test, where the widget says once per page that it keeps its
// data in memory.
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest'
import type { StorageLike } from '../../src/queue/storage.ts'
import { resetWarnings } from '../../src/shared/log.ts'

/** console.warn in the test running (see spyOnWarnings), silenced. */
export let warn: MockInstance<typeof console.warn>

/**
 * Registers the set-up for the file's tests: console.warn spied on and silenced, and warnings
 * given once per page free to be given again.
 */
export function spyOnWarnings() {
  beforeEach(() => {
    resetWarnings()
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })
}

/** What the browser throws when its settings block storage. */
export const securityError = () => new DOMException('The operation is insecure.', 'SecurityError')

/** Storage blocked by the browser's settings: every access throws. */
export function blocked(): StorageLike {
  return {
    get length(): number {
      throw securityError()
    },
    key: () => {
      throw securityError()
    },
    getItem: () => {
      throw securityError()
    },
    setItem: () => {
      throw securityError()
    },
    removeItem: () => {
      throw securityError()
    },
  }
}
