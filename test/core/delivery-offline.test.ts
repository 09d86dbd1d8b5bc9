// Delivery offline, and the bounds of the queue (WIDGET.md section 4): the widget against the
// in-process reference service with fake time. Nothing sent and no attempt used while offline;
// events past maxEventAgeMs (7 days by default) dropped as expired; a burst of 10,000 track() calls
// kept to bounded writes and requests, the overflow announced.
// Each test checks three things: what the SERVICE received and counted (requests, stats, probe),
// what the widget announced (event:sent / event:dropped / ratelimited) and what is left in the
// queue (queueSize); the checks are in test/support/delivery-scenarios.ts.
import { describe, expect, it, vi } from 'vitest'
import type { StorageLike } from '../../src/queue/storage.ts'
import {
  ids,
  ONE_REFERRAL,
  record,
  storedQueue,
  useDeliveryScenarios,
} from '../support/delivery-scenarios.ts'
import { DAY, MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { namespaceOf } from '../support/storage.ts'

const {
  scene,
  open,
  openReady,
  idsInRequests,
  referralWarnings,
  stats,
  statsSince,
  counted,
  trackReferral,
} = useDeliveryScenarios()

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
