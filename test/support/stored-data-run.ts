// A widget started over a world of stored data (test/support/stored-data-world.ts), a service
// that accepts everything, and what a run leaves for the properties of
// src/queue/queue.fuzz.test.ts and its examples to look at.
import { afterEach, beforeEach, expect, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import type { TrackedEvent } from '../../src/api/wire.ts'
import { createReferral } from '../../src/core/create-referral.ts'
import { DEFAULT_MAX_AGE_MS } from '../../src/queue/queue.ts'
import type { LockManagerLike } from '../../src/queue/sender.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { seeded } from './storage.ts'
import { ARRIVAL_CODE, CAMPAIGN, HOUR, PUBLIC_KEY, START, USER } from './stored-data-model.ts'
import { contents, type StoredWorld } from './stored-data-world.ts'

// --- a widget over that storage, a service that accepts everything --------------------------

function service(dated: boolean) {
  const sentEvents: unknown[] = []
  const ok = (body: unknown) =>
    new Response(JSON.stringify(body), {
      headers: {
        'Content-Type': 'application/json',
        // The service's clock agrees with the device's here.
        ...(dated ? { Date: new Date(Date.now()).toUTCString() } : {}),
      },
    })
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input)
    if (url.pathname === '/v1/events') {
      const { events } = JSON.parse(String(init.body)) as { events: Array<{ id?: unknown }> }
      sentEvents.push(...events)
      return ok({
        results: events.map((event) => ({
          id: typeof event.id === 'string' ? event.id : null,
          status: 'accepted',
        })),
      })
    }
    if (url.pathname === '/v1/links') {
      const { campaignId, referrerId } = JSON.parse(String(init.body)) as Record<string, string>
      return ok({
        id: 'link_aaaaaaaaaaaaaaaa',
        code: 'LINKCODE1',
        campaignId,
        referrerId,
        createdAt: '2026-01-01T00:00:00.000Z',
      })
    }
    return ok({ data: [CAMPAIGN], total: 1, hasMore: false })
  }
  return { fetch, sentEvents }
}

/** A lock manager that grants at once: this page is the sending tab from the start. */
const grantingLocks: LockManagerLike = {
  request: (_name, _options, callback) => callback(),
}

function open(storage: StorageLike, fetch: FetchLike, world: StoredWorld) {
  return createReferral({
    publicKey: PUBLIC_KEY,
    apiBase: 'http://service.test',
    userId: USER,
    landingUrl: 'https://shop.test/',
    fetch,
    storage,
    now: () => Date.now(),
    random: seeded(world.seed),
    locks: grantingLocks,
    host: {
      href: () => (world.arrived ? `https://shop.test/?ref=${ARRIVAL_CODE}` : 'https://shop.test/'),
      replaceUrl: () => {},
      isOnline: () => true,
      listen: () => () => {},
      sendBeacon: undefined,
      language: 'en',
      globalPrivacyControl: false,
    },
  })
}

/** Requests, microtasks and timers due now run; time stands still. */
async function settle() {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0)
}

/** When the run's passes may look at the queue: from the start to the end of its flush. */
const FIRST_PASS = START
export const LAST_PASS = START + 2 * HOUR
/** The service's time is learned from a Date in whole seconds: the estimate is within this. */
export const CLOCK_SLACK = 2000
/** Too old at every pass, by either clock. */
export const oldThroughout = (at: number) => FIRST_PASS - at > DEFAULT_MAX_AGE_MS + CLOCK_SLACK
/** Young enough at every pass, by either clock. */
export const freshThroughout = (at: number) => LAST_PASS - at <= DEFAULT_MAX_AGE_MS - CLOCK_SLACK

/** Registers the set-up for the file's tests: fake time from START, quiet consoles. */
export function useFakeTimeAndQuietConsoles() {
  beforeEach(() => {
    vi.useFakeTimers({ now: START })
    for (const method of ['warn', 'error', 'info'] as const)
      vi.spyOn(console, method).mockImplementation(() => {})
  })

  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })
}

/** Runs a widget over a world's storage and gathers what a property needs to look at. */
export async function run(world: StoredWorld) {
  vi.clearAllTimers()
  vi.setSystemTime(START)
  resetWarnings()
  const written = contents(world)
  const storage = createMemoryStorage()
  for (const [key, raw] of written) storage.setItem(key, raw)
  const { fetch, sentEvents } = service(world.dated)

  const referral = open(storage, fetch, world)
  const queued: TrackedEvent[] = []
  const dropped: Array<{ event: TrackedEvent; reason: string }> = []
  referral.on('event:queued', ({ event }) => queued.push(event))
  referral.on('event:dropped', ({ event, reason }) => dropped.push({ event, reason }))
  try {
    const sizeAtStart = referral.queueSize()
    const attribution = referral.getAttribution()
    await settle()
    expect(referral.track('signup', { userId: 'bob' })).toBe(true)
    // A stored 429 pause may hold the flush for up to an hour: let the clock run past it.
    const flushed = referral.flush()
    await vi.advanceTimersByTimeAsync(2 * HOUR)
    await flushed
    await settle()
    return {
      written,
      storage,
      sentEvents,
      queued,
      dropped,
      sizeAtStart,
      attribution,
      sizeAtEnd: referral.queueSize(),
    }
  } finally {
    referral.destroy()
  }
}
