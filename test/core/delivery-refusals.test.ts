// The promises of delivery under a hostile world (issue: "delivery that keeps its promises"),
// refusals: only the service's own are final. An HTML 403 from something in front of the
// service, the service's own 401, 403 or 404 for a while, a key refused on one page, and a 400,
// 413 or 422 for a batch that is about one event.
// Each scenario counts the requests made, and checks with the service that every genuine event
// was counted exactly once.
import { describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import {
  everyOnce,
  json,
  record,
  trackSteadily,
  useDeliveryOutcomes,
} from '../support/delivery-outcomes.ts'
import { MINUTE, SECOND, START, settle } from '../support/delivery-world.ts'
import { seeded } from '../support/storage.ts'

const { scene, open, openReady, counted, intercept } = useDeliveryOutcomes()

// --- only the service's own refusals are final -----------------------------------------------

describe('refusals', () => {
  it('one HTML 403 from something in front of the service: all 20 signups are delivered later', async () => {
    let foreign = 1
    const path = intercept(() => {
      if (foreign-- <= 0) return undefined
      return new Response('<html><body>Access denied</body></html>', {
        status: 403,
        headers: { 'Content-Type': 'text/html' },
      })
    })
    const tab = await openReady({ fetch: path.fetch, random: seeded(14) })
    const seen = record(tab)
    for (let i = 0; i < 20; i++) tab.track('signup', { userId: `waf${i}` })
    await vi.advanceTimersByTimeAsync(MINUTE)

    // Was 0 of 20: the whole batch was dropped for good.
    expect(seen.dropped).toEqual([])
    expect(path.eventRequests).toBe(2)
    expect(seen.sent.sort()).toEqual([...seen.queued].sort())
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it.each([
    { status: 401, code: 'invalid_api_key', type: 'authentication_error' },
    { status: 403, code: 'secret_key_required', type: 'permission_error' },
    { status: 404, code: 'route_missing', type: 'not_found_error' },
  ])(
    "the service's own $status for 20 s (a key-store glitch, a misrouted deploy): all 11 signups kept, one warning, a long wait, each delivered once",
    async ({ status, code, type }) => {
      const refusedUntil = START + 20 * SECOND
      const path = intercept(() =>
        Date.now() < refusedUntil
          ? json(status, { error: { type, code, message: 'no' } })
          : undefined,
      )
      const tab = await openReady({ fetch: path.fetch, random: seeded(20) })
      const seen = record(tab)
      await trackSteadily(tab, 22 * SECOND, 2 * SECOND)

      // Was 11 of 11 dropped as final. Now: none dropped, one request in the refusal, one warning.
      expect(seen.queued).toHaveLength(11)
      expect(seen.dropped).toEqual([])
      expect(path.eventRequests).toBe(1)
      const warnings = scene.warnSpy.mock.calls.map((call) => String(call[0]))
      expect(warnings.filter((line) => line.includes('refused'))).toHaveLength(1)
      expect(warnings.find((line) => line.includes('refused'))).toContain(`${status} ${code}`)
      expect(tab.queueSize()).toBe(11)
      expect(tab.$connection.get().state).toBe('retrying')

      // Minutes later (not seconds) the service is asked again, and takes them all.
      await vi.advanceTimersByTimeAsync(50 * SECOND)
      expect(path.eventRequests).toBe(1)
      await vi.advanceTimersByTimeAsync(2 * MINUTE)
      expect(path.eventRequests).toBe(2)
      expect(seen.sent.sort()).toEqual([...seen.queued].sort())
      expect(tab.queueSize()).toBe(0)
      expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
    },
  )

  it('a refusal of the key waits on this page only: the next page load sends at once', async () => {
    const storage = scene.world.createMemoryStorage()
    let refusing = true
    const path = intercept(() =>
      refusing
        ? json(401, {
            error: { type: 'authentication_error', code: 'invalid_api_key', message: 'no' },
          })
        : undefined,
    )
    const first = await openReady({ fetch: path.fetch, storage })
    const seen = record(first)
    first.track('signup', { userId: 'kept' })
    await vi.advanceTimersByTimeAsync(10 * SECOND)
    expect(path.eventRequests).toBe(1)
    first.destroy()

    refusing = false
    const next = open({ fetch: path.fetch, storage })
    await settle()
    expect(path.eventRequests).toBe(2)
    expect(next.queueSize()).toBe(0)
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it.each([
    { status: 400, code: 'parameter_invalid' },
    { status: 413, code: 'body_too_large' },
    { status: 422, code: 'unprocessable' },
  ])(
    'a $status for a batch of 8 is about one event: halved until it is alone, only it is dropped, the 7 others counted',
    async ({ status, code }) => {
      let bad = ''
      const batches: string[][] = []
      const path = intercept((init) => {
        const { events } = JSON.parse(String(init.body)) as { events: Array<{ id: string }> }
        batches.push(events.map((event) => event.id))
        return events.some((event) => event.id === bad)
          ? json(status, { error: { type: 'invalid_request_error', code, message: 'no' } })
          : undefined
      })
      const tab = await openReady({ fetch: path.fetch })
      const seen = record(tab)
      for (let i = 0; i < 8; i++) tab.track('signup', { userId: `batch${i}` })
      bad = seen.queued[5] ?? ''
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
      await settle()

      expect(seen.dropped).toEqual([{ id: bad, reason: 'rejected' }])
      const good = seen.queued.filter((id) => id !== bad)
      expect(seen.sent.sort()).toEqual([...good].sort())
      expect(tab.queueSize()).toBe(0)
      // The last refused request held the bad event alone; every good event went in an accepted one.
      const refused = batches.filter((batch) => batch.includes(bad))
      expect(refused.at(-1)).toEqual([bad])
      // A binary search: at most two requests per halving.
      expect(batches.length).toBeLessThanOrEqual(2 * Math.log2(8))
      expect(await counted([...good, bad])).toEqual([...everyOnce(good), 'accepted'])
    },
  )
})
