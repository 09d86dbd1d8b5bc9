// The widget as a guest in a hostile page (WIDGET.md section 9, "A guest in the host's page"):
// storage that fails now and then, a page that tracks while offline for a long time (the
// widget keeps to its storage budget and its queue bound), and a reload without storage.
// In each, every tracked event is accepted exactly once or announced as dropped with its reason,
// and nothing is thrown into the page.
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_MAX_STORED_CHARS } from '../../src/queue/chunks.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { everyOnce, record, useDeliveryOutcomes } from '../support/delivery-outcomes.ts'
import { MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { flaky, namespaceOf, seeded, storedChars, withQuota } from '../support/storage.ts'

const { scene, open, openReady, expectEachOnceOrDropped } = useDeliveryOutcomes()

/** What Chromium lets one origin keep in localStorage, in characters. */
const BROWSER_QUOTA = 5_200_000

describe('storage that fails now and then', () => {
  it('one getItem that throws is not corruption: the chunk stays, and all 25 events go later', async () => {
    const backing = createMemoryStorage()
    const first = await openReady({ storage: backing })
    scene.world.setOnline(false)
    const seen = record(first)
    for (let i = 0; i < 25; i++) first.track('signup', { userId: `hiccup${i}` })
    await settle()
    first.destroy()
    scene.world.setOnline(true)

    // The next page's first read of the chunk throws, once.
    const chunk =
      Object.keys(
        Object.fromEntries(Array.from({ length: backing.length }, (_, i) => [backing.key(i), 1])),
      ).find((key) => key.includes(':q:')) ?? ''
    let hiccups = 1
    const storage = flaky(backing, () => false)
    const getItem = storage.getItem
    storage.getItem = (key) => {
      if (key === chunk && hiccups-- > 0)
        throw new DOMException('The operation failed.', 'UnknownError')
      return getItem(key)
    }
    const next = open({ storage })
    const later = record(next)
    await vi.advanceTimersByTimeAsync(10 * SECOND)
    expect(hiccups, 'the read failed, then was tried again').toBeLessThan(0)

    expect(later.dropped).toEqual([])
    expect(new Set(later.sent)).toEqual(new Set(seen.queued))
    expect(next.queueSize()).toBe(0)
    expect(await scene.world.counted(seen.queued)).toEqual(everyOnce(seen.queued))
  })

  it('with 30 % of storage calls failing, all 81 events are delivered once, none dropped', async () => {
    const chance = seeded(30)
    const storage = flaky(createMemoryStorage(), () => chance() < 0.3)
    const tab = await openReady({ storage, random: seeded(31) })
    const seen = record(tab)
    for (let i = 0; i < 81; i++) {
      tab.track('signup', { userId: `flaky${i}` })
      await vi.advanceTimersByTimeAsync(200)
    }
    await vi.advanceTimersByTimeAsync(10 * MINUTE)

    expect(seen.queued).toHaveLength(81)
    expect(seen.dropped).toEqual([])
    await expectEachOnceOrDropped(seen)
  })
})

describe('bounds kept when writing', () => {
  it('30,000 events tracked offline: the widget keeps its budget, the host can still store 200 KB, what fell off is announced', async () => {
    const backing = createMemoryStorage()
    const storage = withQuota(backing, BROWSER_QUOTA)
    const tab = await openReady({ storage })
    const seen = record(tab)
    scene.world.setOnline(false)
    for (let burst = 0; burst < 300; burst++) {
      for (let i = 0; i < 100; i++) tab.track('signup', { userId: `offline${burst}x${i}` })
      await vi.advanceTimersByTimeAsync(50)
    }

    const namespace = namespaceOf(backing)
    expect(storedChars(backing, namespace)).toBeLessThanOrEqual(DEFAULT_MAX_STORED_CHARS)
    expect(() => storage.setItem('host:cart', 'x'.repeat(200_000))).not.toThrow()
    expect(tab.queueSize()).toBeLessThanOrEqual(1000)
    // Each event that fell off was announced as overflow; the rest wait.
    expect(seen.dropped.every(({ reason }) => reason === 'overflow')).toBe(true)
    expect(seen.dropped.length + tab.queueSize()).toBe(30_000)

    scene.world.setOnline(true)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(tab.queueSize()).toBe(0)
    await expectEachOnceOrDropped(seen)
  }, 30_000)

  it('a bound hit by single events in separate tasks drops the oldest first', async () => {
    const storage = createMemoryStorage()
    const tab = await openReady({ storage, maxQueuedEvents: 10 })
    const seen = record(tab)
    scene.world.setOnline(false)
    for (let i = 0; i < 25; i++) {
      tab.track('signup', { userId: `one${i}` })
      await settle()
    }
    expect(tab.queueSize()).toBe(10)
    expect(seen.dropped.map(({ id }) => id)).toEqual(seen.queued.slice(0, 15))
  })
})

describe('a reload without storage', () => {
  it('records the arrival once: the same ?ref after a reload is no second click', async () => {
    const code = await scene.world.makeLink('alice')
    const href = `https://shop.test/?ref=${code}`
    const before = (await scene.world.campaign()).stats.totalClicks
    for (let load = 0; load < 5; load++) {
      const blocked = flaky(createMemoryStorage(), () => true)
      const tab = open({ storage: blocked, href, cleanUrl: false, reloaded: load > 0 })
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
      await settle()
      tab.destroy()
    }
    expect((await scene.world.campaign()).stats.totalClicks - before).toBe(1)
  })

  it('with storage, a reload after the click was remembered records nothing either; a new visit by link does', async () => {
    const code = await scene.world.makeLink('alice')
    const href = `https://shop.test/?ref=${code}`
    const storage = createMemoryStorage()
    const before = (await scene.world.campaign()).stats.totalClicks
    for (const reloaded of [false, true, true]) {
      const tab = open({ storage, href, cleanUrl: false, reloaded })
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
      await settle()
      tab.destroy()
    }
    expect((await scene.world.campaign()).stats.totalClicks - before).toBe(1)
  })
})
