// Delivery over the host's storage (WIDGET.md section 4): the widget against the in-process
// reference service with fake time, on a storage whose setItem throws, and on corrupt or foreign
// data under the widget's keys.
// Each test checks three things: what the SERVICE received and counted (requests, stats, probe),
// what the widget announced (event:sent / event:dropped / ratelimited) and what is left in the
// queue (queueSize); the checks are in test/support/delivery-scenarios.ts.
import { describe, expect, it } from 'vitest'
import type { StorageLike } from '../../src/queue/storage.ts'
import {
  ids,
  ONE_REFERRAL,
  record,
  sendWindow,
  useDeliveryScenarios,
} from '../support/delivery-scenarios.ts'
import { START, settle, type Tab } from '../support/delivery-world.ts'
import { namespaceOf } from '../support/storage.ts'

const { scene, open, openReady, idsInRequests, referralWarnings, stats, statsSince, counted } =
  useDeliveryScenarios()

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
