// Delivery under faults (WIDGET.md section 4, CONTRACT.md "Events" and "Rate limits"): the widget
// against the in-process reference service, with injected faults, shared storage between tabs and
// fake time. Every test checks three things: what the SERVICE received and counted (requests,
// stats, probe), what the widget announced (event:sent / event:dropped / ratelimited) and what is
// left in the queue (queueSize).
import { describe, expect, it, vi } from 'vitest'
import type { Stats, TrackedEvent } from '../../demo/service/schemas.ts'
import type { FetchLike } from '../../src/api/client.ts'
import { type DropReason, SEND_DELAY_MS } from '../../src/queue/queue.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import type { Timers } from '../../src/shared/timers.ts'
import { settle, type Tab, useDeliveryWorld } from '../support/delivery-world.ts'
import type { Fault } from '../support/harness.ts'
import { namespaceOf, seeded, storageKeys } from '../support/storage.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** On an exact second, so an HTTP-date Retry-After can name an exact instant. */
const START = Date.UTC(2026, 0, 15, 12)

const s503: Fault = { kind: 'status', status: 503 }

const scene = useDeliveryWorld(START)
const { open, openReady } = scene

/**
 * Lets the coalescing window pass: events tracked within SEND_DELAY_MS of each other go out in
 * one request once it ends, not at once.
 */
async function sendWindow() {
  await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
  await settle()
}

interface Announcements {
  queued: TrackedEvent[]
  sent: Array<{ id: string; status: 'accepted' | 'duplicate' }>
  dropped: Array<{ id: string; reason: DropReason; code: string | undefined }>
  ratelimited: number[]
}

/** Everything a tab announces from now on. */
function record(tab: Tab): Announcements {
  const log: Announcements = { queued: [], sent: [], dropped: [], ratelimited: [] }
  tab.on('event:queued', ({ event }) => log.queued.push(event))
  tab.on('event:sent', ({ event, status }) => log.sent.push({ id: event.id, status }))
  tab.on('event:dropped', ({ event, reason, error }) =>
    log.dropped.push({ id: event.id, reason, code: error?.code }),
  )
  tab.on('ratelimited', ({ until }) => log.ratelimited.push(until))
  return log
}

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id)

/** Every event id the service was sent, one entry per request it appeared in. */
const idsInRequests = () => scene.world.eventRequests().flatMap((request) => request.eventIds)

const referralWarnings = () =>
  scene.warnSpy.mock.calls.filter((call) => String(call[0]).startsWith('[referral]'))

const stats = async (): Promise<Stats> => (await scene.world.campaign()).stats

/** The change in the seeded campaign's counters since `before`. */
async function statsSince(before: Stats): Promise<Stats> {
  const after = await stats()
  return {
    totalClicks: after.totalClicks - before.totalClicks,
    totalConversions: after.totalConversions - before.totalConversions,
    totalRewardsIssued: after.totalRewardsIssued - before.totalRewardsIssued,
  }
}

/** Whether the service counted ids: 'duplicate' = counted before (call it last). */
const counted = (eventIds: readonly string[]) => scene.world.counted(eventIds)

interface StoredEvent {
  id: string
  attempts: number
}

/** The queue's stored events, read straight from storage. */
function storedQueue(storage: StorageLike): StoredEvent[] {
  return storageKeys(storage)
    .filter((key) => key.includes(':q:'))
    .flatMap(
      (key) => (JSON.parse(storage.getItem(key) ?? '{}') as { events: StoredEvent[] }).events,
    )
}

/** Tracks a click through a real link and a signup of a new user: one conversion once counted. */
async function trackReferral(tab: Tab, referrer = 'alice', user = 'bob') {
  const code = await scene.world.makeLink(referrer)
  expect(tab.track('click', { code })).toBe(true)
  expect(tab.track('signup', { userId: user })).toBe(true)
  return code
}

const ONE_REFERRAL: Stats = { totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }

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

// --- offline ---------------------------------------------------------------------------------

describe('offline', () => {
  it('sends nothing and uses no attempt while offline; going online delivers', async () => {
    const storage = scene.world.createMemoryStorage()
    const tab = await openReady({ storage })
    const seen = record(tab)
    const before = await stats()
    scene.world.setOnline(false)
    await trackReferral(tab)
    await settle()
    expect(tab.$connection.get()).toEqual({ state: 'offline' })

    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    let flushed = false
    void tab.flush().then(() => {
      flushed = true
    })
    await settle()
    expect(flushed).toBe(true) // tried once: there was nothing it could do

    expect(scene.world.eventRequests()).toHaveLength(0)
    expect(tab.queueSize()).toBe(2)
    const stored = storedQueue(storage)
    expect(ids(stored)).toEqual(ids(seen.queued))
    expect(stored.map((event) => event.attempts)).toEqual([0, 0])
    expect(storage.getItem(`${namespaceOf(storage)}delivery`)).toBeNull()

    scene.world.setOnline(true)
    await settle()

    const tracked = ids(seen.queued)
    const requests = scene.world.eventRequests()
    expect(requests.map((request) => request.status)).toEqual([200])
    expect(requests[0]?.eventIds).toEqual(tracked)
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
  })
})

// --- storage ---------------------------------------------------------------------------------

describe('storage', () => {
  it('a storage whose setItem throws: track never throws, one warning, and the event arrives', async () => {
    const backing = scene.world.createMemoryStorage()
    let refused = 0
    const full: StorageLike = {
      get length() {
        return backing.length
      },
      key: (index) => backing.key(index),
      getItem: (key) => backing.getItem(key),
      setItem: () => {
        refused += 1
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      },
      removeItem: (key) => backing.removeItem(key),
    }
    const tab = await openReady({ storage: full })
    const seen = record(tab)
    const before = await stats()
    const code = await scene.world.makeLink('alice')
    let results: boolean[] = []
    expect(() => {
      results = [tab.track('click', { code }), tab.track('signup', { userId: 'bob' })]
    }).not.toThrow()
    expect(results).toEqual([true, true])
    await sendWindow()

    expect(refused).toBeGreaterThan(0)
    expect(scene.warnSpy).toHaveBeenCalledTimes(1)
    expect(referralWarnings()).toHaveLength(1)
    const tracked = ids(seen.queued)
    expect(scene.world.eventRequests().map((request) => request.eventIds)).toEqual([tracked])
    expect(seen.sent).toEqual(tracked.map((id) => ({ id, status: 'accepted' })))
    expect(tab.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
  })

  it('corrupt or foreign data under the widget keys is discarded, never sent, and good events still go', async () => {
    const storage = scene.world.createMemoryStorage()
    const first = await openReady({ storage })
    const firstSeen = record(first)
    scene.world.setOnline(false)
    first.track('signup', { userId: 'stored-before' }) // a good event left from a past visit
    await settle()
    first.destroy()
    const ns = namespaceOf(storage)
    expect(ns).toMatch(/^referral:test:[a-z0-9]+:$/)

    const wellFormed = (id: string) => ({
      id,
      type: 'signup',
      visitorId: 'v_foreignVisitor0001',
      userId: 'mallory',
      occurredAt: new Date(START).toISOString(),
      queuedAt: START,
      attempts: 0,
    })
    const foreignIds = ['e_fromVersionTwo0001', 'e_badTypeEvent000001', 'e_badVisitorEvent001']
    const corrupt: Record<string, string> = {
      [`${ns}q:0-bad-1`]: '{',
      [`${ns}q:0-bad-2`]: 'null',
      [`${ns}q:0-bad-3`]: '[1,2,3]',
      [`${ns}q:0-bad-4`]: JSON.stringify({ v: 1, events: 'nope' }),
      [`${ns}q:0-bad-5`]: JSON.stringify({ v: 1, events: [{ id: 'e_missingFields00001' }] }),
      [`${ns}q:0-bad-6`]: JSON.stringify({ v: 2, events: [wellFormed('e_fromVersionTwo0001')] }),
      [`${ns}q:0-bad-7`]: JSON.stringify({
        v: 1,
        events: [{ ...wellFormed('e_badTypeEvent000001'), type: 'purchase' }],
      }),
      [`${ns}q:0-bad-8`]: JSON.stringify({
        v: 1,
        events: [{ ...wellFormed('e_badVisitorEvent001'), visitorId: '<script>' }],
      }),
      [`${ns}q:0-bad-9`]: 'x'.repeat(5 * 1024 * 1024),
      [`${ns}q:0-bad-10`]: JSON.stringify('y'.repeat(5 * 1024 * 1024)),
      [`${ns}delivery`]: '{"v":1,"pausedUntil":"soon"}',
      [`${ns}visitor`]: '{',
      [`${ns}lease`]: 'null',
    }
    for (const [key, value] of Object.entries(corrupt)) storage.setItem(key, value)
    scene.world.setOnline(true)

    let tab: Tab | undefined
    expect(() => {
      tab = open({ storage })
    }).not.toThrow()
    if (!tab) throw new Error('no tab')
    const seen = record(tab)
    await settle()
    expect(tab.track('signup', { userId: 'fresh' })).toBe(true)
    await sendWindow()

    const good = [...ids(firstSeen.queued), ...ids(seen.queued)]
    expect(good).toHaveLength(2)
    const sentIds = idsInRequests()
    expect([...sentIds].sort()).toEqual([...good].sort())
    for (const id of [...foreignIds, 'e_missingFields00001']) expect(sentIds).not.toContain(id)
    expect(ids(seen.sent).sort()).toEqual([...good].sort())
    for (const key of Object.keys(corrupt).filter((key) => key.includes(':q:'))) {
      expect(storage.getItem(key), key).toBeNull()
    }
    expect(tab.queueSize()).toBe(0)
    expect(referralWarnings().length).toBeGreaterThan(0)
    // Events of a readable chunk that break the contract are dropped one by one, announced; so
    // are those a discarded chunk still names (the one of another version).
    expect(seen.dropped).toEqual(
      [
        'e_missingFields00001',
        'e_fromVersionTwo0001',
        'e_badTypeEvent000001',
        'e_badVisitorEvent001',
      ].map((id) => ({
        id,
        reason: 'invalid',
        code: undefined,
      })),
    )
    // The good ones were counted; the foreign ones never were.
    expect(await counted([...good, ...foreignIds])).toEqual([
      'duplicate',
      'duplicate',
      'accepted',
      'accepted',
      'accepted',
    ])
  })
})

// --- bounds ----------------------------------------------------------------------------------

describe('queue bounds', () => {
  it('events older than maxEventAgeMs are dropped with an expired notice, fresh ones go', async () => {
    const tab = await openReady({ maxEventAgeMs: MINUTE })
    const seen = record(tab)
    scene.world.setOnline(false)
    tab.track('signup', { userId: 'old' })
    await vi.advanceTimersByTimeAsync(50 * SECOND)
    tab.track('signup', { userId: 'fresh' })
    await vi.advanceTimersByTimeAsync(11 * SECOND) // the first is now 61 s old
    const [old, fresh] = ids(seen.queued)

    scene.world.setOnline(true)
    await settle()

    expect(seen.dropped).toEqual([{ id: old, reason: 'expired', code: undefined }])
    expect(scene.world.eventRequests().map((request) => request.eventIds)).toEqual([[fresh]])
    expect(seen.sent).toEqual([{ id: fresh, status: 'accepted' }])
    expect(referralWarnings()).toHaveLength(1)
    expect(tab.queueSize()).toBe(0)
    expect(await counted([old ?? '', fresh ?? ''])).toEqual(['accepted', 'duplicate'])
  })

  it('by default, events older than 7 days are dropped as expired in the tab open a week later', async () => {
    const storage = scene.world.createMemoryStorage()
    const first = await openReady({ storage })
    const firstSeen = record(first)
    scene.world.setOnline(false)
    first.track('signup', { userId: 'old' })
    await settle()
    first.destroy()
    const [old] = ids(firstSeen.queued)
    expect(storedQueue(storage)).toHaveLength(1)

    vi.setSystemTime(Date.now() + 7 * DAY + MINUTE)
    scene.world.setOnline(true)
    const tab = open({ storage })
    // Subscribed synchronously, before anything could have been sent or announced.
    const seen = record(tab)
    await settle()

    expect(seen.dropped).toEqual([{ id: old, reason: 'expired', code: undefined }])
    expect(scene.world.eventRequests()).toHaveLength(0)
    expect(storedQueue(storage)).toHaveLength(0)
    expect(tab.queueSize()).toBe(0)
    expect(await counted([old ?? ''])).toEqual(['accepted'])
  })

  it('an event of 7 days less a minute is still delivered', async () => {
    const storage = scene.world.createMemoryStorage()
    const first = await openReady({ storage })
    const firstSeen = record(first)
    scene.world.setOnline(false)
    first.track('signup', { userId: 'old' })
    await settle()
    first.destroy()

    vi.setSystemTime(Date.now() + 7 * DAY - MINUTE)
    scene.world.setOnline(true)
    const tab = open({ storage })
    const seen = record(tab)
    await settle()
    const [old] = ids(firstSeen.queued)
    expect(scene.world.eventRequests().map((request) => request.eventIds)).toEqual([[old]])
    expect(seen.sent).toEqual([{ id: old, status: 'accepted' }])
    expect(seen.dropped).toEqual([])
  })

  it('10,000 track() calls in a burst: bounded writes and requests, overflow announced, never silent', async () => {
    const backing = scene.world.createMemoryStorage()
    let writes = 0
    let largestWrite = 0
    const counting: StorageLike = {
      get length() {
        return backing.length
      },
      key: (index) => backing.key(index),
      getItem: (key) => backing.getItem(key),
      setItem: (key, value) => {
        writes += 1
        largestWrite = Math.max(largestWrite, value.length)
        backing.setItem(key, value)
      },
      removeItem: (key) => backing.removeItem(key),
    }
    const tab = await openReady({ storage: counting })
    const seen = record(tab)
    const maxQueued = 1000 // the default bound
    const writesBefore = writes
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

    let refusedCalls = 0
    for (let i = 0; i < 10_000; i++) {
      // A realistic user id: a UUID.
      const userId = `${hex(i, 8)}-7a1b-4c2d-8e3f-${hex(i * 7919, 12)}`
      if (!tab.track('signup', { userId })) refusedCalls += 1
    }
    expect(refusedCalls).toBe(0)
    await settle()
    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = ids(seen.queued)
    expect(tracked).toHaveLength(10_000)
    const requests = scene.world.eventRequests()
    expect(requests.length).toBeLessThanOrEqual(maxQueued / 100 + 3)
    expect(writes - writesBefore).toBeLessThanOrEqual(maxQueued / 100 + 20)

    const overflow = seen.dropped.filter((drop) => drop.reason === 'overflow')
    expect(overflow).toHaveLength(10_000 - maxQueued)
    expect(seen.sent).toHaveLength(maxQueued)
    // Every tracked event is either delivered or announced as dropped, each exactly once.
    expect([...ids(seen.sent), ...ids(seen.dropped)].sort()).toEqual([...tracked].sort())
    expect(new Set(idsInRequests()).size).toBe(idsInRequests().length)
    expect([...idsInRequests()].sort()).toEqual(ids(seen.sent).sort())
    expect(tab.queueSize()).toBe(0)
    // The queue's bound holds in storage too: never much more than maxQueued events in one value.
    expect(largestWrite).toBeLessThan(maxQueued * 400)
    // A sample: dropped ones were never counted, sent ones were.
    expect(await counted([ids(overflow)[0] ?? '', ids(seen.sent)[0] ?? ''])).toEqual([
      'accepted',
      'duplicate',
    ])
  })
})

// --- tabs ------------------------------------------------------------------------------------

describe('two tabs on one storage', () => {
  it('deliver every event exactly once, no event id in two requests', async () => {
    const storage = scene.world.createMemoryStorage()
    const a = open({ storage })
    const b = open({ storage })
    await settle()
    const seenA = record(a)
    const seenB = record(b)

    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 25; i++) {
        a.track('signup', { userId: `a${round}-${i}` })
        b.track('signup', { userId: `b${round}-${i}` })
      }
      await vi.advanceTimersByTimeAsync(round * 1700)
    }
    let flushed = false
    void b.flush().then(() => {
      flushed = true
    })
    await vi.advanceTimersByTimeAsync(5 * SECOND)
    expect(flushed).toBe(true)
    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = [...ids(seenA.queued), ...ids(seenB.queued)]
    expect(tracked).toHaveLength(300)
    const sentIds = idsInRequests()
    expect(new Set(sentIds).size).toBe(sentIds.length) // no id in two requests
    expect([...sentIds].sort()).toEqual([...tracked].sort())
    for (const request of scene.world.eventRequests()) expect(request.status).toBe(200)
    const announced = [...ids(seenA.sent), ...ids(seenB.sent)]
    expect(announced.sort()).toEqual([...tracked].sort())
    expect([...seenA.dropped, ...seenB.dropped]).toEqual([])
    expect(a.queueSize()).toBe(0)
    expect(b.queueSize()).toBe(0)
    expect(new Set(await counted(tracked))).toEqual(new Set(['duplicate']))
  })

  it("a closed tab's in-flight events are delivered by the next tab, counted once", async () => {
    const storage = scene.world.createMemoryStorage()
    const a = await openReady({ storage })
    const seenA = record(a)
    const before = await stats()
    scene.world.faults.push({ kind: 'lost-response' })
    await trackReferral(a)
    await sendWindow()
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual([200])
    a.destroy()
    expect(storedQueue(storage)).toHaveLength(2) // the queue stays stored

    await vi.advanceTimersByTimeAsync(30 * SECOND)
    const b = open({ storage })
    const seenB = record(b)
    await settle()

    const tracked = ids(seenA.queued)
    const requests = scene.world.eventRequests()
    expect(requests).toHaveLength(2)
    for (const request of requests) expect(request.eventIds).toEqual(tracked)
    expect(seenB.sent).toEqual(tracked.map((id) => ({ id, status: 'duplicate' })))
    expect(b.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })

  it('a tab that dies mid-request: the other open tab (no Web Locks: every tab sends) delivers its events, counted once', async () => {
    const storage = scene.world.createMemoryStorage()
    let dead = false
    // The dying tab: its timers stop, and its request reaches the service but never answers.
    const deadTimers: Timers = {
      setTimeout: (callback, ms) =>
        globalThis.setTimeout(() => {
          if (!dead) callback()
        }, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    }
    const hangingFetch: FetchLike = (input, init) => {
      const answer = scene.world.fetch(input, init)
      if (!new URL(input).pathname.startsWith('/v1/events')) return answer
      dead = true
      return new Promise<Response>(() => {})
    }
    const a = open({ storage, storageEvents: true, timers: deadTimers, fetch: hangingFetch })
    const b = open({ storage, storageEvents: true })
    await settle()
    const seenA = record(a)
    const seenB = record(b)
    const before = await stats()
    await trackReferral(a)
    await sendWindow()
    expect(dead).toBe(true)

    await vi.advanceTimersByTimeAsync(20 * SECOND)

    const tracked = ids(seenA.queued)
    const requests = scene.world.eventRequests()
    // A's request (which the service answered into the void) and B's, with the same events.
    expect(requests).toHaveLength(2)
    for (const request of requests) expect(request.eventIds).toEqual(tracked)
    expect(ids(seenB.sent)).toEqual(tracked)
    expect(b.queueSize()).toBe(0)
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(await counted(tracked)).toEqual(['duplicate', 'duplicate'])
  })

  it('two tabs without Web Locks both send what they find stored: every event is counted once', async () => {
    const storage = scene.world.createMemoryStorage()
    // A network with a 300 ms round trip: one tab's request is still out when the other's pass runs.
    const slowFetch: FetchLike = (input, init) =>
      new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() =>
        scene.world.fetch(input, init),
      )
    const a = open({ storage, storageEvents: true, fetch: slowFetch })
    const b = open({ storage, storageEvents: true, fetch: slowFetch })
    await vi.advanceTimersByTimeAsync(SECOND)
    const seenA = record(a)
    const seenB = record(b)
    const before = await stats()

    // Each round, each tab records a referral (a click on a new referrer's link, a sign-up).
    for (let round = 0; round < 4; round++) {
      await trackReferral(a, `refA${round}`, `userA${round}`)
      await trackReferral(b, `refB${round}`, `userB${round}`)
      await vi.advanceTimersByTimeAsync(round * 700)
    }
    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = [...ids(seenA.queued), ...ids(seenB.queued)]
    expect(tracked).toHaveLength(16)
    // Both tabs sent what they found stored, so events went out more than once.
    const sentIds = idsInRequests()
    expect(new Set(sentIds)).toEqual(new Set(tracked))
    expect(sentIds.length).toBeGreaterThan(tracked.length)
    for (const request of scene.world.eventRequests()) expect(request.status).toBe(200)
    expect(new Set(ids([...seenA.sent, ...seenB.sent]))).toEqual(new Set(tracked))
    expect([...seenA.dropped, ...seenB.dropped]).toEqual([])
    expect(a.queueSize()).toBe(0)
    expect(b.queueSize()).toBe(0)
    // The service counted each event once: eight referrals, as if one tab had sent them.
    expect(await statsSince(before)).toEqual({
      totalClicks: 8,
      totalConversions: 8,
      totalRewardsIssued: 16,
    })
    expect(new Set(await counted(tracked))).toEqual(new Set(['duplicate']))
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

// --- attribution -----------------------------------------------------------------------------

describe('attribution', () => {
  it('one click per code per visitor across reloads and tabs, and the signup converts', async () => {
    const before = await stats()
    const code = await scene.world.makeLink('alice')
    const href = `https://shop.test/pricing?ref=${code}&utm=x`
    const storage = scene.world.createMemoryStorage()
    const replaced: string[] = []
    const replaceUrl = (url: string) => void replaced.push(url)

    const first = open({ storage, href, replaceUrl })
    await settle()
    expect(first.getAttribution()?.code).toBe(code)
    expect(replaced).toEqual(['https://shop.test/pricing?utm=x'])
    // The click was recorded as the page opened (before anyone could subscribe): one request.
    const clicks = idsInRequests()
    expect(clicks).toHaveLength(1)
    expect(first.queueSize()).toBe(0)

    // A second tab with the same URL, then a reload of the first.
    const second = open({ storage, href, replaceUrl })
    expect(second.queueSize()).toBe(0) // no click gathered as it opened
    const secondSeen = record(second)
    await settle()
    const visitorId = first.getAttribution()?.visitorId
    first.destroy()
    const reloaded = open({ storage, href, replaceUrl })
    expect(reloaded.queueSize()).toBe(0)
    const reloadedSeen = record(reloaded)
    await settle()
    await vi.advanceTimersByTimeAsync(MINUTE)

    expect(second.getAttribution()?.code).toBe(code)
    const attribution = reloaded.getAttribution()
    expect(attribution?.code).toBe(code)
    expect(attribution?.visitorId).toBe(visitorId)
    expect(secondSeen.queued).toEqual([])
    expect(reloadedSeen.queued).toEqual([])
    expect(idsInRequests()).toEqual(clicks)
    expect((await statsSince(before)).totalClicks).toBe(1)

    // Later, the visitor signs up: attributed through the stored code.
    expect(reloaded.track('signup', { userId: 'bob' })).toBe(true)
    await sendWindow()
    const signup = ids(reloadedSeen.queued)
    expect(signup).toHaveLength(1)
    expect(idsInRequests()).toEqual([...clicks, ...signup])
    expect(await statsSince(before)).toEqual(ONE_REFERRAL)
    expect(reloaded.queueSize()).toBe(0)
    expect(second.queueSize()).toBe(0)
  })
})
