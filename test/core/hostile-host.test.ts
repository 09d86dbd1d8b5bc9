// The widget as a guest in a hostile page (WIDGET.md section 9, "A guest in the host's page"):
// storage that fails now and then, a page that tracks while offline for a long time, answers that
// leave events out, a polluted Object.prototype, Prototype.js's Array.prototype.toJSON, a replaced
// JSON, and a reload without storage. In each, every tracked event is accepted exactly once or
// announced as dropped with its reason, and nothing is thrown into the page.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { DEFAULT_MAX_STORED_CHARS } from '../../src/queue/chunks.ts'
import { type DropReason, SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import { settle, type Tab, useDeliveryWorld } from '../support/delivery-world.ts'
import {
  flaky,
  namespaceOf,
  seeded,
  storageKeys,
  storedChars,
  withQuota,
} from '../support/storage.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const START = Date.UTC(2026, 0, 15, 12)
/** What Chromium lets one origin keep in localStorage, in characters. */
const BROWSER_QUOTA = 5_200_000

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

const everyOnce = (ids: readonly string[]) => ids.map(() => 'duplicate')

/** Every event accepted once (the service says duplicate now) or announced as dropped. */
async function expectEachOnceOrDropped(seen: Seen) {
  const dropped = new Set(seen.dropped.map(({ id }) => id))
  const kept = seen.queued.filter((id) => !dropped.has(id))
  expect(new Set(seen.sent)).toEqual(new Set(kept))
  expect(await scene.world.counted(kept)).toEqual(everyOnce(kept))
}

/** The world's fetch, with the events answer rewritten by `answer` (the request still counts). */
function answering(answer: (results: unknown[], ids: string[]) => unknown): FetchLike {
  return async (input, init) => {
    const response = await scene.world.fetch(input, init)
    if (new URL(input).pathname !== '/v1/events' || !response.ok) return response
    const { results } = (await response.json()) as { results: unknown[] }
    const { events } = JSON.parse(String(init.body)) as { events: Array<{ id: string }> }
    return new Response(
      JSON.stringify(
        answer(
          results,
          events.map((event) => event.id),
        ),
      ),
      {
        headers: { 'Content-Type': 'application/json' },
      },
    )
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

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

describe('answers that leave events out', () => {
  it.each([
    { name: 'an empty results list', answer: () => ({ results: [] }) },
    {
      name: 'results for other ids',
      answer: (_: unknown[], ids: string[]) => ({
        results: ids.map((id) => ({ id: `x${id}`, status: 'accepted' })),
      }),
    },
  ])('$name: the events stay queued and go again with the backoff', async ({ answer }) => {
    let lying = 2
    const fetch = answering((results, ids) => (lying-- > 0 ? answer(results, ids) : { results }))
    const tab = await openReady({ fetch, random: seeded(7) })
    const seen = record(tab)
    for (let i = 0; i < 3; i++) tab.track('signup', { userId: `unanswered${i}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(tab.queueSize()).toBe(3)
    expect(tab.$connection.get().state).toBe('retrying')

    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    await expectEachOnceOrDropped(seen)
  })

  it('a partial answer: the events it names are done, the others go again', async () => {
    let partial = 1
    const fetch = answering((results) =>
      partial-- > 0 ? { results: results.slice(0, 1) } : { results },
    )
    const tab = await openReady({ fetch, random: seeded(8) })
    const seen = record(tab)
    for (let i = 0; i < 4; i++) tab.track('signup', { userId: `partial${i}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(seen.sent).toEqual(seen.queued.slice(0, 1))
    expect(tab.queueSize()).toBe(3)

    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(tab.queueSize()).toBe(0)
    await expectEachOnceOrDropped(seen)
  })
})

describe("the page's prototypes and JSON", () => {
  const POLLUTION = [
    'polluted',
    'code',
    'userId',
    'serviceAt',
    'occurredAt',
    'events',
    'error',
    'v',
    'body',
    'cookieDomain',
    'consent',
    'storage',
    'signal',
  ]
  const prototypes = Object.prototype as Record<string, unknown>
  const unpollute = () => {
    for (const name of POLLUTION) delete prototypes[name]
  }
  const pollute = (value: () => unknown) => {
    for (const name of POLLUTION)
      Object.defineProperty(prototypes, name, {
        value: value(),
        enumerable: true,
        configurable: true,
        writable: true,
      })
  }

  /**
   * The world's fetch, with the service (a test double in this process, not in the page) run
   * without the page's changes; `lift` takes them away and returns how to put them back.
   */
  const serviceOutsideThePage =
    (lift: () => () => void): FetchLike =>
    async (input, init) => {
      const restore = lift()
      try {
        return await scene.world.fetch(input, init)
      } finally {
        restore()
      }
    }

  afterEach(() => {
    unpollute()
    delete (Array.prototype as { toJSON?: unknown }).toJSON
  })

  it.each([
    { name: 'strings', value: () => 'yes' },
    { name: 'functions', value: () => () => 1 },
    { name: 'objects', value: () => ({}) },
  ])(
    'a polluted Object.prototype ($name, under our own field names): every event delivered once',
    async ({ value }) => {
      const code = await scene.world.makeLink('alice')
      const fetch = serviceOutsideThePage(() => {
        unpollute()
        return () => pollute(value)
      })
      pollute(value)
      const tab = open({ storage: createMemoryStorage(), fetch })
      const seen = record(tab)
      tab.track('click', { code })
      tab.track('signup', { userId: 'prototype' })
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
      await settle()
      unpollute()

      expect(seen.dropped).toEqual([])
      expect(seen.queued).toHaveLength(2)
      await expectEachOnceOrDropped(seen)
    },
  )

  /** What a page stored: the queue's chunks and the visitor, as text. */
  const storedText = (storage: StorageLike) =>
    storageKeys(storage)
      .filter((key) => key.includes(':q:') || key.endsWith(':visitor'))
      .map((key) => storage.getItem(key))

  it('Array.prototype.toJSON (Prototype.js), set before and after events were stored: the same bytes, every event delivered', async () => {
    scene.world.setOnline(false)
    const clean = createMemoryStorage()
    const cleanTab = open({ storage: clean, random: seeded(9), now: () => START })
    cleanTab.track('signup', { userId: 'bytes' })
    await settle()
    cleanTab.destroy()

    // Prototype.js 1.6: every array serializes as a string of itself.
    const toJson = function (this: unknown[]) {
      return JSON.stringify(this.slice())
    }
    const arrays = Array.prototype as { toJSON?: unknown }
    arrays.toJSON = toJson
    const storage = createMemoryStorage()
    const fetch = serviceOutsideThePage(() => {
      delete arrays.toJSON
      return () => {
        arrays.toJSON = toJson
      }
    })
    const tab = open({ storage, random: seeded(9), now: () => START, fetch })
    const seen = record(tab)
    tab.track('signup', { userId: 'bytes' })
    await settle()
    expect(storedText(storage)).toEqual(storedText(clean))

    tab.track('signup', { userId: 'after' })
    scene.world.setOnline(true)
    await vi.advanceTimersByTimeAsync(MINUTE)
    delete arrays.toJSON
    expect(seen.dropped).toEqual([])
    expect(scene.world.eventRequests().every((request) => request.status === 200)).toBe(true)
    await expectEachOnceOrDropped(seen)
  })

  it('a page that replaced JSON.stringify: stored and sent as before', async () => {
    const broken = { parse: JSON.parse, stringify: () => '"broken"' }
    const fetch = serviceOutsideThePage(() => {
      vi.unstubAllGlobals()
      return () => vi.stubGlobal('JSON', broken)
    })
    vi.stubGlobal('JSON', broken)
    const tab = open({ storage: createMemoryStorage(), fetch })
    const seen = record(tab)
    tab.track('signup', { userId: 'replaced' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    vi.unstubAllGlobals()
    expect(seen.dropped).toEqual([])
    expect(seen.queued).toHaveLength(1)
    await expectEachOnceOrDropped(seen)
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
