// What the delivery scenarios of test/core/delivery-{failures,rate-limits,offline,storage,tabs}
// check: what the SERVICE received and counted (requests, stats, probe), what the widget announced
// (event:sent / event:dropped / ratelimited) and what is left in the queue (queueSize).
import { expect, vi } from 'vitest'
import type { Stats, TrackedEvent } from '../../demo/service/schemas.ts'
import { type DropReason, SEND_DELAY_MS } from '../../src/queue/queue.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import { START, settle, type Tab, useDeliveryWorld } from './delivery-world.ts'
import type { Fault } from './harness.ts'
import { storageKeys } from './storage.ts'

export const s503: Fault = { kind: 'status', status: 503 }

/** The counters a delivery scenario changes (a self-referral is none of them). */
type Counters = Pick<Stats, 'totalClicks' | 'totalConversions' | 'totalRewardsIssued'>

export const ONE_REFERRAL: Counters = { totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }

/**
 * Lets the coalescing window pass: events tracked within SEND_DELAY_MS of each other go out in
 * one request once it ends, not at once.
 */
export async function sendWindow() {
  await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
  await settle()
}

export interface Announcements {
  queued: TrackedEvent[]
  sent: Array<{ id: string; status: 'accepted' | 'duplicate' }>
  dropped: Array<{ id: string; reason: DropReason; code: string | undefined }>
  ratelimited: number[]
}

/** Everything a tab announces from now on. */
export function record(tab: Tab): Announcements {
  const log: Announcements = { queued: [], sent: [], dropped: [], ratelimited: [] }
  tab.on('event:queued', ({ event }) => log.queued.push(event))
  tab.on('event:sent', ({ event, status }) => log.sent.push({ id: event.id, status }))
  tab.on('event:dropped', ({ event, reason, error }) =>
    log.dropped.push({ id: event.id, reason, code: error?.code }),
  )
  tab.on('ratelimited', ({ until }) => log.ratelimited.push(until))
  return log
}

export const ids = (events: readonly { id: string }[]) => events.map((event) => event.id)

interface StoredEvent {
  id: string
  attempts: number
}

/** The queue's stored events, read straight from storage. */
export function storedQueue(storage: StorageLike): StoredEvent[] {
  return storageKeys(storage)
    .filter((key) => key.includes(':q:'))
    .flatMap(
      (key) => (JSON.parse(storage.getItem(key) ?? '{}') as { events: StoredEvent[] }).events,
    )
}

/**
 * Registers the delivery world (from START) for the file's tests, with the checks that ask its
 * service what it received and counted.
 */
export function useDeliveryScenarios() {
  const scene = useDeliveryWorld(START)

  /** Every event id the service was sent, one entry per request it appeared in. */
  const idsInRequests = () => scene.world.eventRequests().flatMap((request) => request.eventIds)

  const referralWarnings = () =>
    scene.warnSpy.mock.calls.filter((call) => String(call[0]).startsWith('[referral]'))

  const stats = async (): Promise<Stats> => (await scene.world.campaign()).stats

  /** The change in the seeded campaign's counters since `before`. */
  async function statsSince(before: Counters): Promise<Counters> {
    const after = await stats()
    return {
      totalClicks: after.totalClicks - before.totalClicks,
      totalConversions: after.totalConversions - before.totalConversions,
      totalRewardsIssued: after.totalRewardsIssued - before.totalRewardsIssued,
    }
  }

  /** Whether the service counted ids: 'duplicate' = counted before (call it last). */
  const counted = (eventIds: readonly string[]) => scene.world.counted(eventIds)

  /** Tracks a click through a real link and a signup of a new user: one conversion once counted. */
  async function trackReferral(tab: Tab, referrer = 'alice', user = 'bob') {
    const code = await scene.world.makeLink(referrer)
    expect(tab.track('click', { code })).toBe(true)
    expect(tab.track('signup', { userId: user })).toBe(true)
    return code
  }

  return {
    scene,
    open: scene.open,
    openReady: scene.openReady,
    trackReferral,
    // What the service was sent, what it counted, and what the widget warned of.
    idsInRequests,
    counted,
    stats,
    statsSince,
    referralWarnings,
  }
}
