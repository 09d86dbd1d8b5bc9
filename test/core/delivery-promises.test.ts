// The promises of delivery under a hostile world (issue: "delivery that keeps its promises"):
// backoff held by the queue whatever new events arrive, 429s without a usable Retry-After, a
// poisoned store, a device clock corrected while events waited, Retry-After dates against a
// wrong clock, and refusals from something in front of the service. Each scenario counts the
// requests made, and checks with the service that every genuine event was counted exactly once.
import { describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { backoffMs } from '../../src/api/retry.ts'
import { type DropReason, SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { settle, type Tab, useDeliveryWorld } from '../support/delivery-world.ts'
import { namespaceOf, seeded, storageKeys } from '../support/storage.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const DAY = 24 * 60 * MINUTE
const YEAR = 365 * DAY
const START = Date.UTC(2026, 0, 15, 12)

const scene = useDeliveryWorld(START)
const { open, openReady } = scene

interface Seen {
  queued: string[]
  sent: string[]
  dropped: Array<{ id: string; reason: DropReason }>
}

function record(tab: Tab): Seen {
  const seen: Seen = { queued: [], sent: [], dropped: [] }
  tab.on('event:queued', ({ event }) => seen.queued.push(event.id))
  tab.on('event:sent', ({ event }) => seen.sent.push(event.id))
  tab.on('event:dropped', ({ event, reason }) => seen.dropped.push({ id: event.id, reason }))
  return seen
}

/** Whether the service counted these ids: 'duplicate' means it had (call it last). */
const counted = (ids: readonly string[]) => scene.world.counted(ids)

const everyOnce = (ids: readonly string[]) => ids.map(() => 'duplicate')

interface Interceptor {
  /** Every POST /v1/events the page attempted, answered or not. */
  eventRequests: number
  fetch: FetchLike
}

/**
 * The world's fetch behind a stand-in for what sits between page and service: `answer` may
 * answer an events request itself (or throw, as a browser refusing it would); otherwise it goes
 * through.
 */
function intercept(
  answer: (init: RequestInit) => Promise<Response> | Response | undefined,
): Interceptor {
  const interceptor: Interceptor = {
    eventRequests: 0,
    fetch: async (input, init) => {
      if (new URL(input).pathname !== '/v1/events') return scene.world.fetch(input, init)
      interceptor.eventRequests += 1
      const own = await answer(init)
      return own ?? scene.world.fetch(input, init)
    },
  }
  return interceptor
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })

const serviceError = (status: number, code: string) =>
  json(status, { error: { type: 'api_error', code, message: 'injected' } })

/**
 * The most requests a backoff schedule allows in `window` ms of failures, the first made when
 * the coalescing window ends: with full jitter each wait is at least 0, so this bounds from the
 * mean schedule (every draw 0.5) with a margin of two.
 */
function meanScheduleRequests(window: number): number {
  let at = SEND_DELAY_MS
  let requests = 0
  while (at <= window) {
    requests += 1
    at += backoffMs(requests, 0.5)
  }
  return requests
}

/** Tracks a signup every `every` ms for `duration` ms. */
async function trackSteadily(tab: Tab, duration: number, every: number, prefix = 'u') {
  for (let at = 0; at < duration; at += every) {
    expect(tab.track('signup', { userId: `${prefix}${at}` })).toBe(true)
    await vi.advanceTimersByTimeAsync(every)
  }
}

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

// --- bounded bodies --------------------------------------------------------------------------

const KEEPALIVE_LIMIT = 64 * 1024

/** Chromium's rule: a keepalive body over 64 KiB is refused before it reaches the network. */
const keepaliveLimited = () =>
  intercept((init) => {
    if (init.keepalive && typeof init.body === 'string' && init.body.length > KEEPALIVE_LIMIT) {
      throw new TypeError('Failed to fetch')
    }
    return undefined
  })

const storedEvent = (id: string, occurredAt: string) => ({
  id,
  type: 'signup',
  visitorId: 'v_storedVisitor00001',
  userId: 'stored-user',
  occurredAt,
  queuedAt: START - MINUTE,
  attempts: 0,
})

describe('bounded bodies', () => {
  it('a poisoned store (one event of 70,000 digits, 100 of 700) holds nothing back: 5 of 5 genuine signups delivered', async () => {
    const storage = scene.world.createMemoryStorage()
    const first = await openReady({ storage })
    first.destroy()
    const ns = namespaceOf(storage)
    const digits = (n: number) => `2026-01-15T11:59:00.${'1'.repeat(n)}Z`
    storage.setItem(
      `${ns}q:0-poison-1`,
      JSON.stringify({ v: 1, events: [storedEvent('e_poisonedEvent00001', digits(70_000))] }),
    )
    storage.setItem(
      `${ns}q:0-poison-2`,
      JSON.stringify({
        v: 1,
        events: Array.from({ length: 100 }, (_, i) =>
          storedEvent(`e_longTimestamp${String(i).padStart(5, '0')}`, digits(700)),
        ),
      }),
    )

    const path = keepaliveLimited()
    const tab = open({ storage, fetch: path.fetch })
    const seen = record(tab)
    for (let i = 0; i < 5; i++) expect(tab.track('signup', { userId: `genuine${i}` })).toBe(true)
    await vi.advanceTimersByTimeAsync(MINUTE)

    // Was 0 of 5: every request was refused before the network, nothing announced.
    expect(seen.sent.sort()).toEqual([...seen.queued].sort())
    expect(seen.queued).toHaveLength(5)
    expect(seen.dropped).toHaveLength(101)
    expect(new Set(seen.dropped.map((drop) => drop.reason))).toEqual(new Set(['invalid']))
    expect(seen.dropped.map((drop) => drop.id)).toContain('e_poisonedEvent00001')
    expect(tab.queueSize()).toBe(0)
    expect(storageKeys(storage).filter((key) => key.includes(':q:'))).toEqual([])
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
    expect(await counted(['e_poisonedEvent00001'])).toEqual(['accepted']) // never sent before
  })

  it('an event outside the contract is refused when tracked, announced, never stored', async () => {
    const tab = await openReady({ now: () => 9e15 }) // beyond what an ISO date can say
    const seen = record(tab)
    // The informational occurredAt is left out rather than the event refused.
    expect(tab.track('signup', { userId: 'far-future' })).toBe(true)
    expect(seen.queued).toHaveLength(1)
  })

  it('a large backlog goes in batches under the keepalive limit', async () => {
    const storage = scene.world.createMemoryStorage()
    const first = await openReady({ storage, campaign: 'on-demand' })
    const seen = record(first)
    scene.world.setOnline(false)
    // User ids of 128 characters make each event about 330 bytes: 100 would pass 32 KiB, and the
    // service still allows them; the batch is cut by bytes wherever the bound falls.
    for (let i = 0; i < 450; i++) {
      first.track('signup', { userId: `${String(i).padStart(4, '0')}${'x'.repeat(124)}` })
    }
    await settle()
    const sizes: number[] = []
    const path = intercept((init) => {
      sizes.push(String(init.body).length)
      return undefined
    })
    first.destroy()
    scene.world.setOnline(true)
    const tab = open({ storage, fetch: path.fetch })
    const sent = record(tab)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(sent.sent.sort()).toEqual([...seen.queued].sort())
    for (const size of sizes) expect(size).toBeLessThanOrEqual(KEEPALIVE_LIMIT)
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it('a request the browser refuses the same way twice is cut in half until the rest goes; the refused event waits', async () => {
    let blocked = true
    const path = intercept((init) => {
      if (blocked && String(init.body).includes('"blocked-user"'))
        throw new TypeError('Failed to fetch')
      return undefined
    })
    const tab = await openReady({ fetch: path.fetch, random: seeded(13) })
    const seen = record(tab)
    tab.track('signup', { userId: 'blocked-user' })
    for (let i = 0; i < 6; i++) tab.track('signup', { userId: `free${i}` })
    await vi.advanceTimersByTimeAsync(5 * MINUTE)

    const [blockedId, ...free] = seen.queued
    expect(seen.sent.sort()).toEqual([...free].sort())
    expect(tab.queueSize()).toBe(1)
    expect(seen.dropped).toEqual([])

    blocked = false
    await vi.advanceTimersByTimeAsync(2 * MINUTE)
    expect(seen.sent).toContain(blockedId)
    expect(tab.queueSize()).toBe(0)
    expect(await counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })
})

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
