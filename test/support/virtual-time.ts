// Virtual time for code that takes `now` and `sleep(ms, signal)`: no timer fires on its own.
// drive() runs a promise to completion, moving the clock to the next timer only when nothing
// else can happen (no request in flight, a macrotask turn gone by), so a wait is never cut short
// by a slow in-process request and the test never sleeps.

interface Timer {
  at: number
  resolve: () => void
}

export function virtualTime(start = Date.parse('2026-03-01T12:00:00.000Z')) {
  let clock = start
  let timers: Timer[] = []
  let inFlight = 0
  /** Every wait asked for, in order, in milliseconds. */
  const waits: number[] = []

  const now = () => clock
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      waits.push(ms)
      const timer: Timer = { at: clock + ms, resolve }
      timers.push(timer)
      signal.addEventListener('abort', () => {
        timers = timers.filter((t) => t !== timer)
        resolve()
      })
    })

  /** Wraps a fetch so that drive() knows a request is on its way. */
  const tracked =
    (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      inFlight += 1
      try {
        return await fetch(input, init)
      } finally {
        inFlight -= 1
      }
    }

  async function drive<T>(promise: Promise<T>): Promise<T> {
    let settled = false
    promise.then(
      () => (settled = true),
      () => (settled = true),
    )
    for (let turns = 0; !settled; turns++) {
      if (turns > 10_000) throw new Error('drive(): the promise never settled')
      await new Promise((resolve) => setImmediate(resolve))
      if (settled || inFlight > 0 || timers.length === 0) continue
      timers.sort((a, b) => a.at - b.at)
      const next = timers.shift() as Timer
      clock = Math.max(clock, next.at)
      next.resolve()
    }
    return promise
  }

  return { now, sleep, tracked, drive, waits, elapsed: () => clock - start }
}
