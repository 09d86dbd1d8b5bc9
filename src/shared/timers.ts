/** A day in milliseconds: the unit of referral windows and storage ages. */
export const DAY_MS = 24 * 60 * 60 * 1000

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The global timers, looked up at call time so fake timers installed later still apply. */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}
