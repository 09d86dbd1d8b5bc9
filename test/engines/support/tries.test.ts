// The engine suite's retried start: a start that hangs is given up at its deadline and tried
// again, the hung one told to give up and closed if it comes, and three hangs fail naming each.
import { afterEach, expect, it, vi } from 'vitest'
import { startWithTries } from './tries.ts'

afterEach(() => {
  vi.useRealTimers()
})

const browser = (name: string, closed: string[]) => ({
  name,
  close: async () => void closed.push(name),
})

it('tries again after a start that hangs: the hung one is told to give up, and closed if it comes up', async () => {
  vi.useFakeTimers()
  const closed: string[] = []
  let comeUp: (value: ReturnType<typeof browser>) => void = () => {}
  const signals: AbortSignal[] = []
  /** The first start hangs; the second comes up. */
  const start = (abandon: AbortSignal) => {
    signals.push(abandon)
    return signals.length === 1
      ? new Promise<ReturnType<typeof browser>>((resolve) => (comeUp = resolve))
      : Promise.resolve(browser('second', closed))
  }
  const started = startWithTries('a browser', start, { ms: 10_000, tries: 3 })
  await vi.advanceTimersByTimeAsync(10_000)
  expect((await started).name).toBe('second')
  expect(signals.map((signal) => signal.aborted)).toEqual([true, false])
  comeUp(browser('first', closed))
  await vi.waitFor(() => expect(closed).toEqual(['first']))
})

it('fails after the last try, naming what hung and what failed', async () => {
  vi.useFakeTimers()
  let attempt = 0
  const started = startWithTries(
    'a private MiniBrowser',
    () => {
      attempt++
      return attempt === 2
        ? Promise.reject(new Error('WebKitWebDriver exited (1)'))
        : new Promise<never>(() => {})
    },
    { ms: 10_000, tries: 3 },
  )
  const failure = expect(started).rejects.toThrow(
    'a private MiniBrowser did not start (3 tries): no answer in 10 s; Error: WebKitWebDriver exited (1); no answer in 10 s',
  )
  await vi.advanceTimersByTimeAsync(30_000)
  await failure
  expect(attempt).toBe(3)
})
