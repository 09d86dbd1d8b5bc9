// Delivery from tabs that share one storage (WIDGET.md section 4): the widget against the
// in-process reference service with fake time. Every event delivered and counted once whether the
// tabs share the work, one closes or dies mid-request, or both send without Web Locks; and one
// click per code per visitor across reloads and tabs.
// Each test checks three things: what the SERVICE received and counted (requests, stats, probe),
// what the widget announced (event:sent / event:dropped / ratelimited) and what is left in the
// queue (queueSize); the checks are in test/support/delivery-scenarios.ts.
import { describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import type { Timers } from '../../src/shared/timers.ts'
import {
  ids,
  ONE_REFERRAL,
  record,
  sendWindow,
  storedQueue,
  useDeliveryScenarios,
} from '../support/delivery-scenarios.ts'
import { MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { createFakeLocks } from '../support/fake-locks.ts'

const { scene, open, openReady, idsInRequests, stats, statsSince, counted, trackReferral } =
  useDeliveryScenarios()

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

  it('with Web Locks: an idle tab holds no lock, and passes take turns, no event id in two requests', async () => {
    const storage = scene.world.createMemoryStorage()
    const fake = createFakeLocks()
    // A network with a 300 ms round trip: one tab's pass is still sending when the other's is due.
    const slowFetch: FetchLike = (input, init) =>
      new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() =>
        scene.world.fetch(input, init),
      )
    const tabs = [0, 1].map(() =>
      open({ storage, storageEvents: true, locks: fake.locks, fetch: slowFetch }),
    )
    await vi.advanceTimersByTimeAsync(SECOND)
    expect(fake.requests).toBe(0) // nothing to send: nothing asked for
    const seen = tabs.map(record)
    for (let round = 0; round < 4; round++) {
      for (const [index, tab] of tabs.entries())
        tab.track('signup', { userId: `u${index}-${round}` })
      await vi.advanceTimersByTimeAsync(round * 500)
    }
    await vi.advanceTimersByTimeAsync(MINUTE)

    const tracked = seen.flatMap((log) => ids(log.queued))
    expect(tracked).toHaveLength(8)
    const sentIds = idsInRequests()
    expect(new Set(sentIds).size).toBe(sentIds.length) // no id in two requests
    expect(new Set(sentIds)).toEqual(new Set(tracked))
    expect(new Set(seen.flatMap((log) => ids(log.sent)))).toEqual(new Set(tracked))
    expect(tabs.map((tab) => tab.queueSize())).toEqual([0, 0])
    expect([fake.isHeld(), fake.waitingFor()]).toEqual([false, 0])
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
