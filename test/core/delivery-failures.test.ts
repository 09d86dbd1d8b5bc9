// Delivery under faults (WIDGET.md section 4, CONTRACT.md "Events"): the widget against the
// in-process reference service, with injected faults and fake time. The failures it retries with
// the same event ids (5xx, network errors, a host fetch that throws, a lost answer) and the
// refusals that are final (a 400 for one event, a per-event rejection).
// Each test checks three things: what the SERVICE received and counted (requests, stats, probe),
// what the widget announced (event:sent / event:dropped / ratelimited) and what is left in the
// queue (queueSize); the checks are in test/support/delivery-scenarios.ts.
import { describe, expect, it, vi } from 'vitest'
import {
  ids,
  ONE_REFERRAL,
  record,
  s503,
  sendWindow,
  useDeliveryScenarios,
} from '../support/delivery-scenarios.ts'
import { MINUTE, settle } from '../support/delivery-world.ts'
import { seeded } from '../support/storage.ts'

const { scene, openReady, referralWarnings, stats, statsSince, counted, trackReferral } =
  useDeliveryScenarios()

// --- retryable failures ----------------------------------------------------------------------

describe('retryable failures', () => {
  it('503 three times, then success: each event delivered once, same ids every try, counted once', async () => {
    const tab = await openReady({ random: seeded(1) })
    const seen = record(tab)
    const before = await stats()
    scene.world.faults.push(s503, s503, s503)
    await trackReferral(tab)
    await settle()
    expect(scene.world.eventRequests()).toEqual([]) // the two calls go together, once the window ends
    await sendWindow()

    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([503])
    expect(tab.queueSize()).toBe(2)
    expect(tab.$connection.get().state).toBe('retrying')
    expect(seen.sent).toEqual([])

    // Backoff is capped at 60 s: three more minutes cover the three retries.
    await vi.advanceTimersByTimeAsync(3 * MINUTE)

    const tracked = ids(seen.queued)
    expect(tracked).toHaveLength(2)
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual([503, 503, 503, 200])
    for (const request of requests) expect(request.eventIds).toEqual(tracked)
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })

  it('backs off instead of retrying at once, and flush() tries again without waiting for the backoff', async () => {
    // A constant source makes every id alike; harmless here, with a single event.
    const tab = await openReady({ random: () => 0.999 })
    const seen = record(tab)
    scene.world.faults.push(s503)
    tab.track('signup', { userId: 'carol' })
    await sendWindow()
    expect(scene.world.eventRequests()).toHaveLength(1)

    // With jitter near 1, the first backoff is close to 2 s: nothing goes before it.
    await vi.advanceTimersByTimeAsync(1500)
    expect(scene.world.eventRequests()).toHaveLength(1)

    const at = Date.now()
    let flushed = false
    void tab.flush().then(() => {
      flushed = true
    })
    await settle()
    expect(Date.now()).toBe(at)
    expect(flushed).toBe(true)
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([503, 200])
    expect(seen.sent).toEqual([{ id: ids(seen.queued)[0], status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
    expect(await counted(ids(seen.queued))).toEqual(['duplicate'])
  })

  it('network errors retry with the same event id', async () => {
    const tab = await openReady()
    const seen = record(tab)
    const before = await stats()
    scene.world.faults.push({ kind: 'network' }, { kind: 'network' })
    await trackReferral(tab)
    await sendWindow()
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual(['network'])
    expect(tab.queueSize()).toBe(2)

    await vi.advanceTimersByTimeAsync(2 * MINUTE)

    const tracked = ids(seen.queued)
    const requests = scene.world.eventRequests()
    // The same failure twice before reaching the network cuts the batch in half (one event the
    // browser will not send cannot hold the rest): the retry goes one event at a time.
    expect(requests.map((request) => request.status)).toEqual(['network', 'network', 200, 200])
    for (const request of requests.slice(0, 2)) expect(request.eventIds).toEqual(tracked)
    expect(requests.slice(2).map((request) => request.eventIds)).toEqual(tracked.map((id) => [id]))
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })

  it('a host fetch that throws synchronously is a retryable error, delivered later', async () => {
    const tab = await openReady()
    const seen = record(tab)
    const before = await stats()
    scene.world.faults.push({ kind: 'throw-sync' })
    await trackReferral(tab)
    await sendWindow()
    expect(scene.world.eventRequests()).toHaveLength(1)
    expect(tab.queueSize()).toBe(2)
    expect(seen.dropped).toEqual([])

    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = ids(seen.queued)
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual(['network', 200])
    for (const request of requests) expect(request.eventIds).toEqual(tracked)
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(tab.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })

  it('the service accepted but the answer was lost: re-sent, and counted once', async () => {
    const tab = await openReady()
    const seen = record(tab)
    const before = await stats()
    scene.world.faults.push({ kind: 'lost-response' })
    await trackReferral(tab)
    await sendWindow()
    // The service handled it (200) but the widget never saw the answer.
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([200])
    expect(tab.queueSize()).toBe(2)
    expect(seen.sent).toEqual([])

    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = ids(seen.queued)
    const requests = scene.world.eventRequests()
    expect(requests).toHaveLength(2)
    for (const request of requests) expect(request.eventIds).toEqual(tracked)
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'duplicate' })))
    expect(tab.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })
})

// --- final refusals --------------------------------------------------------------------------

describe('refused events', () => {
  it('a 400 for a batch of one event drops it with event:dropped and one warning; the next event goes', async () => {
    const tab = await openReady()
    const seen = record(tab)
    scene.world.faults.push({
      kind: 'status',
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          message: 'events[0].userId is invalid.',
          param: 'events.0.userId',
        },
      },
    })
    tab.track('signup', { userId: 'u1' })
    await sendWindow()

    const refused = ids(seen.queued)
    expect(seen.dropped).toEqual(
      refused.map((id) => ({ id, reason: 'rejected', code: 'parameter_invalid' })),
    )
    expect(scene.warnSpy).toHaveBeenCalledTimes(1)
    expect(referralWarnings()).toHaveLength(1)
    expect(seen.sent).toEqual([])
    expect(tab.queueSize()).toBe(0)

    // Never retried.
    await vi.advanceTimersByTimeAsync(5 * MINUTE)
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([400])

    tab.track('signup', { userId: 'u3' })
    await sendWindow()
    const next = ids(seen.queued)[1] ?? ''
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual([400, 200])
    expect(requests[1]?.eventIds).toEqual([next])
    expect(seen.sent).toEqual([{ id: next, status: 'accepted' }])
    expect(tab.queueSize()).toBe(0)
    // The refused one never reached the counters; the next one did.
    expect(await counted([...refused, next])).toEqual(['accepted', 'duplicate'])
  })

  it('a per-event rejection drops only that event', async () => {
    const tab = await openReady()
    const seen = record(tab)
    const before = await stats()
    const code = await scene.world.makeLink('alice')
    tab.track('click', { code: 'Unknown123' })
    tab.track('click', { code })
    await sendWindow()

    const [unknown, known] = ids(seen.queued)
    const requests = scene.world.eventRequests()
    expect(requests).toHaveLength(1)
    expect(requests[0]?.eventIds).toEqual([unknown, known])
    expect(seen.dropped).toEqual([{ id: unknown, reason: 'rejected', code: 'unknown_code' }])
    expect(seen.sent).toEqual([{ id: known, status: 'accepted' }])
    expect(referralWarnings()).toHaveLength(1)
    expect(tab.queueSize()).toBe(0)
    expect((await statsSince(before)).totalClicks).toBe(1)

    // The rejected one is not retried.
    await vi.advanceTimersByTimeAsync(5 * MINUTE)
    expect(scene.world.eventRequests()).toHaveLength(1)
  })
})
