// Delivery under rate limits (WIDGET.md section 4, CONTRACT.md "Rate limits"): the widget against
// the in-process reference service, with injected faults and fake time. A 429's Retry-After in
// seconds or as an HTTP date, the service's own limiter, and a device clock set backwards while a
// retry or a pause waits.
// Each test checks three things: what the SERVICE received and counted (requests, stats, probe),
// what the widget announced (event:sent / event:dropped / ratelimited) and what is left in the
// queue (queueSize); the checks are in test/support/delivery-scenarios.ts.
import { describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import {
  ids,
  record,
  s503,
  sendWindow,
  useDeliveryScenarios,
} from '../support/delivery-scenarios.ts'
import { DAY, MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { seeded } from '../support/storage.ts'

const { scene, openReady, counted } = useDeliveryScenarios()

// --- rate limits -----------------------------------------------------------------------------

describe('429 Retry-After', () => {
  it('pauses every event until Retry-After: 7 has passed; flush() settles when the pause ends', async () => {
    const tab = await openReady()
    const seen = record(tab)
    // Sent once the coalescing window ends; the pause runs from the answer.
    const until = Date.now() + SEND_DELAY_MS + 7 * SECOND
    scene.world.faults.push({ kind: 'status', status: 429, headers: { 'Retry-After': '7' } })
    tab.track('signup', { userId: 'u1' })
    await sendWindow()

    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([429])
    expect(seen.ratelimited).toEqual([until])
    expect(tab.$connection.get()).toEqual({ state: 'rate-limited', until })

    // More events during the pause, some of them in a later task: none goes early.
    await vi.advanceTimersByTimeAsync(2 * SECOND)
    tab.track('signup', { userId: 'u2' })
    await settle()
    await vi.advanceTimersByTimeAsync(1 * SECOND)
    tab.track('signup', { userId: 'u3' })
    let flushed = false
    void tab.flush().then(() => {
      flushed = true
    })
    await settle()

    await vi.advanceTimersByTimeAsync(until - 1 - Date.now())
    expect(Date.now()).toBe(until - 1)
    expect(scene.world.eventRequests()).toHaveLength(1)
    expect(flushed).toBe(false)
    expect(tab.queueSize()).toBe(3)
    expect(tab.$connection.get()).toEqual({ state: 'rate-limited', until })
    expect(seen.sent).toEqual([])

    await vi.advanceTimersByTimeAsync(1)
    await settle()

    const tracked = ids(seen.queued)
    expect(tracked).toHaveLength(3)
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual([429, 200])
    expect(requests[1]?.eventIds).toEqual(tracked)
    expect(flushed).toBe(true)
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate', 'duplicate'])
  })

  it('honours an HTTP-date Retry-After', async () => {
    const tab = await openReady()
    const seen = record(tab)
    const until = Date.now() + SEND_DELAY_MS + 30 * SECOND
    scene.world.faults.push({
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': new Date(until).toUTCString() },
    })
    tab.track('signup', { userId: 'u1' })
    await sendWindow()
    expect(seen.ratelimited).toEqual([until])
    expect(tab.$connection.get()).toEqual({ state: 'rate-limited', until })

    await vi.advanceTimersByTimeAsync(until - 1 - Date.now())
    expect(scene.world.eventRequests()).toHaveLength(1)
    expect(tab.queueSize()).toBe(1)

    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([429, 200])
    expect(seen.sent).toEqual([{ id: ids(seen.queued)[0], status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
    expect(await counted(ids(seen.queued))).toEqual(['duplicate'])
  })

  it("the service's own limiter: one refused request, then nothing until its window resets", async () => {
    scene.rebuild({ pkRateLimit: 3 })
    // The start-up campaign request is the first counted request of the window.
    const windowStart = Date.now()
    const tab = await openReady()
    const seen = record(tab)
    tab.track('signup', { userId: 'u1' })
    await sendWindow()
    tab.track('signup', { userId: 'u2' })
    await sendWindow()
    await vi.advanceTimersByTimeAsync(10 * SECOND)
    tab.track('signup', { userId: 'u3' }) // the fourth request of the window: refused
    await sendWindow()
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([200, 200, 429])
    const until = windowStart + MINUTE
    expect(seen.ratelimited).toEqual([until])

    for (let i = 4; i < 10; i++) {
      tab.track('signup', { userId: `u${i}` })
      await vi.advanceTimersByTimeAsync(5 * SECOND)
    }
    expect(Date.now()).toBeLessThan(until)
    expect(scene.world.eventRequests()).toHaveLength(3)

    await vi.advanceTimersByTimeAsync(until - Date.now())
    await settle()
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual([200, 200, 429, 200])
    const tracked = ids(seen.queued)
    expect(tracked).toHaveLength(9)
    expect(requests[3]?.eventIds).toEqual(tracked.slice(2))
    expect(seen.sent.map((sent) => sent.id)).toEqual(tracked)
    expect(tab.queueSize()).toBe(0)
  })
})

// --- clocks ----------------------------------------------------------------------------------

describe('a clock that jumps backwards', () => {
  it('after a 503 scheduled a retry, still makes progress', async () => {
    const tab = await openReady({ random: seeded(7) })
    const seen = record(tab)
    scene.world.faults.push(s503)
    tab.track('signup', { userId: 'u1' })
    await sendWindow()
    expect(scene.world.eventRequests()).toHaveLength(1)

    vi.setSystemTime(Date.now() - DAY)
    await vi.advanceTimersByTimeAsync(2 * MINUTE)

    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([503, 200])
    expect(seen.sent).toEqual([{ id: ids(seen.queued)[0], status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
  })

  it('after a 429 paused delivery, still makes progress', async () => {
    const tab = await openReady()
    const seen = record(tab)
    scene.world.faults.push({ kind: 'status', status: 429, headers: { 'Retry-After': '7' } })
    tab.track('signup', { userId: 'u1' })
    await sendWindow()
    expect(scene.world.eventRequests()).toHaveLength(1)

    vi.setSystemTime(Date.now() - DAY)
    await vi.advanceTimersByTimeAsync(2 * MINUTE)

    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([429, 200])
    expect(seen.sent).toEqual([{ id: ids(seen.queued)[0], status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
  })

  it('a backwards jump shorter than the longest allowed pause does not stretch a 7 s Retry-After', async () => {
    const tab = await openReady()
    const seen = record(tab)
    scene.world.faults.push({ kind: 'status', status: 429, headers: { 'Retry-After': '7' } })
    tab.track('signup', { userId: 'u1' })
    await sendWindow()
    expect(scene.world.eventRequests()).toHaveLength(1)

    // The clock is set back 10 minutes: 7 s of real waiting still ends the pause.
    vi.setSystemTime(Date.now() - 10 * MINUTE)
    await vi.advanceTimersByTimeAsync(MINUTE)

    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([429, 200])
    expect(seen.sent).toEqual([{ id: ids(seen.queued)[0], status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
  })
})
