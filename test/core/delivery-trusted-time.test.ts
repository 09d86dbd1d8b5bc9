// The promises of delivery under a hostile world (issue: "delivery that keeps its promises"),
// time you can trust: events stamped by a slow device clock are delivered once it is corrected,
// and a Retry-After date is read against the answer's Date, not a wrong device clock.
// Each scenario counts the requests made, and checks with the service that every genuine event
// was counted exactly once.
import { describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import {
  everyOnce,
  json,
  record,
  serviceError,
  useDeliveryOutcomes,
} from '../support/delivery-outcomes.ts'
import { DAY, MINUTE, SECOND, settle } from '../support/delivery-world.ts'

const { scene, open, openReady, counted, intercept } = useDeliveryOutcomes()

const YEAR = 365 * DAY

// --- time you can trust ----------------------------------------------------------------------

describe('time you can trust', () => {
  it.each([
    ['8 days', 8 * DAY],
    ['a year', YEAR],
  ])(
    'events stamped while the device clock was %s slow are delivered after it is corrected',
    async (_, behind) => {
      const storage = scene.world.createMemoryStorage()
      const down = intercept(() => serviceError(503, 'internal_error'))
      // The service answers (its campaign, its 503s), so the slow page learns the real time.
      const slow = await openReady({ storage, fetch: down.fetch, now: () => Date.now() - behind })
      const seen = record(slow)
      for (let i = 0; i < 10; i++) slow.track('signup', { userId: `slow${i}` })
      await vi.advanceTimersByTimeAsync(10 * SECOND)
      slow.destroy()
      expect(down.eventRequests).toBeGreaterThan(0)

      await vi.advanceTimersByTimeAsync(MINUTE)
      const corrected = open({ storage })
      const after = record(corrected)
      await vi.advanceTimersByTimeAsync(MINUTE)
      // Was 0 of 10: all dropped as expired though seconds old.
      expect(after.dropped).toEqual([])
      expect(after.sent.sort()).toEqual([...seen.queued].sort())
      expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
    },
  )

  it('events stamped offline by a slow clock that never met the service wait for an answer, then go', async () => {
    const storage = scene.world.createMemoryStorage()
    scene.world.setOnline(false)
    const slow = open({ storage, campaign: 'on-demand', now: () => Date.now() - 30 * DAY })
    const seen = record(slow)
    for (let i = 0; i < 10; i++) slow.track('signup', { userId: `offline${i}` })
    await settle()
    slow.destroy()
    scene.world.setOnline(true)

    // A tracking-only page: its device clock says the events are a month old, so they wait
    // for the service's time; the next event's answer brings it.
    const path = intercept(() => undefined)
    const corrected = open({ storage, campaign: 'on-demand', fetch: path.fetch })
    const after = record(corrected)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(path.eventRequests).toBe(0)
    expect(after.dropped).toEqual([])
    corrected.track('signup', { userId: 'today' })
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(after.dropped).toEqual([])
    const all = [...seen.queued, ...after.queued]
    expect(after.sent.sort()).toEqual([...all].sort())
    expect(await counted(all)).toEqual(everyOnce(all))
  })

  it.each([
    ['a year slow', -YEAR],
    ['a year fast', YEAR],
  ])(
    'a Retry-After date is read against the answer’s Date with the device clock %s',
    async (_, skew) => {
      let limited = true
      const path = intercept(() => {
        if (!limited) return undefined
        limited = false
        return json(
          429,
          { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'slow down' } },
          {
            Date: new Date(Date.now()).toUTCString(),
            'Retry-After': new Date(Date.now() + 7 * SECOND).toUTCString(),
          },
        )
      })
      const tab = await openReady({ fetch: path.fetch, now: () => Date.now() + skew })
      const seen = record(tab)
      let until = 0
      tab.on('ratelimited', (event) => {
        until = event.until
      })
      tab.track('signup', { userId: 'patient' })
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
      expect(path.eventRequests).toBe(1)
      // On the device's own clock, 7 s from the refusal (was: the one-hour cap, or no pause).
      expect(until - (Date.now() + skew)).toBe(7 * SECOND)

      await vi.advanceTimersByTimeAsync(7 * SECOND - 1)
      expect(path.eventRequests).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(path.eventRequests).toBe(2)
      expect(seen.sent).toEqual(seen.queued)
    },
  )
})
