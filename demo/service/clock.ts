/** The service's sense of time. Tests use a manual clock; the demo can move a real one forward. */
export interface Clock {
  now(): number
  /** Moves time forward (or back, with a negative amount). */
  advance(ms: number): void
}

export interface ManualClock extends Clock {
  set(ms: number): void
}

export function createManualClock(start = Date.UTC(2026, 0, 15, 12)): ManualClock {
  let current = start
  return {
    now: () => current,
    advance: (ms) => {
      current += ms
    },
    set: (ms) => {
      current = ms
    },
  }
}

/** Wall time plus an offset that the demo page's "move the clock" control adds to. */
export function createSystemClock(): Clock {
  let offset = 0
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms
    },
  }
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export const iso = (ms: number): string => new Date(ms).toISOString()

/** The UTC day a moment falls on, as a day number: what a per-day limit counts by. */
export const utcDay = (ms: number): number => Math.floor(ms / DAY)
