// The promises of delivery under a hostile world (issue: "delivery that keeps its promises"),
// backoff: a state of the queue, held whatever new events arrive, after a 5xx and after a 429
// without a usable Retry-After alike; the events of one coalescing window go in one request, and
// flush() still sends at once.
// Each scenario counts the requests made, and checks with the service that every genuine event
// was counted exactly once.
import { describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import {
  everyOnce,
  json,
  meanScheduleRequests,
  record,
  serviceError,
  trackSteadily,
  useDeliveryOutcomes,
} from '../support/delivery-outcomes.ts'
import { MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { seeded } from '../support/storage.ts'

const { openReady, counted, intercept } = useDeliveryOutcomes()

describe('backoff is a state of the queue', () => {
  it('a 40 s outage while tracking every 250 ms costs the backoff schedule, not a request per call', async () => {
    let down = true
    const path = intercept(() => (down ? serviceError(503, 'internal_error') : undefined))
    const tab = await openReady({ fetch: path.fetch, random: seeded(11) })
    const seen = record(tab)

    await trackSteadily(tab, 40 * SECOND, 250)
    const duringOutage = path.eventRequests
    // Was 127: every track() sent at once, with the whole queue.
    expect(duringOutage).toBeLessThanOrEqual(meanScheduleRequests(40 * SECOND) + 2)
    expect(duringOutage).toBeLessThanOrEqual(8)
    expect(tab.$connection.get().state).toBe('retrying')

    down = false
    await vi.advanceTimersByTimeAsync(2 * MINUTE)
    expect(seen.queued).toHaveLength(160)
    expect(seen.sent.sort()).toEqual([...seen.queued].sort())
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it.each([
    ['no Retry-After', undefined],
    ['Retry-After: 0', '0'],
    ['Retry-After: soon', 'soon'],
  ])('40 s of 429s with %s back off exponentially, like a 5xx', async (_, retryAfter) => {
    let limited = true
    const path = intercept(() =>
      limited
        ? json(
            429,
            { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'slow down' } },
            retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
          )
        : undefined,
    )
    const tab = await openReady({ fetch: path.fetch, random: seeded(12) })
    const seen = record(tab)
    let ratelimited = 0
    tab.on('ratelimited', () => {
      ratelimited += 1
    })

    await trackSteadily(tab, 40 * SECOND, 250)
    // Was 82: the wait stayed between 0 and 1 s forever.
    expect(path.eventRequests).toBeLessThanOrEqual(meanScheduleRequests(40 * SECOND) + 2)
    expect(ratelimited).toBe(path.eventRequests)

    limited = false
    await vi.advanceTimersByTimeAsync(2 * MINUTE)
    expect(seen.sent.sort()).toEqual([...seen.queued].sort())
    expect(tab.queueSize()).toBe(0)
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it('events tracked within the coalescing window go out in one request', async () => {
    const path = intercept(() => undefined)
    const tab = await openReady({ fetch: path.fetch })
    const seen = record(tab)
    for (let i = 0; i < 4; i++) {
      tab.track('signup', { userId: `burst${i}` })
      await vi.advanceTimersByTimeAsync(200)
    }
    expect(path.eventRequests).toBe(0)
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    expect(path.eventRequests).toBe(1)
    expect(seen.sent).toEqual(seen.queued)
  })

  it('flush() still sends at once, inside a backoff too', async () => {
    let down = true
    const path = intercept(() => (down ? serviceError(503, 'internal_error') : undefined))
    const tab = await openReady({ fetch: path.fetch, random: seeded(15) })
    const seen = record(tab)
    tab.track('signup', { userId: 'now' })
    await tab.flush()
    expect(path.eventRequests).toBe(1)
    down = false
    tab.track('signup', { userId: 'later' })
    await settle()
    expect(path.eventRequests).toBe(1) // the backoff holds the new event
    await tab.flush()
    expect(path.eventRequests).toBe(2)
    expect(seen.sent.sort()).toEqual([...seen.queued].sort())
  })
})
