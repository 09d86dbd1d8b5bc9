// The widget as a guest in a hostile page (WIDGET.md section 9, "A guest in the host's page"):
// a polluted Object.prototype, Prototype.js's Array.prototype.toJSON and a replaced JSON.
// In each, every tracked event is accepted exactly once or announced as dropped with its reason,
// and nothing is thrown into the page.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import { record, useDeliveryOutcomes } from '../support/delivery-outcomes.ts'
import { MINUTE, START, settle } from '../support/delivery-world.ts'
import { seeded, storageKeys } from '../support/storage.ts'

const { scene, open, expectEachOnceOrDropped } = useDeliveryOutcomes()

afterEach(() => {
  vi.unstubAllGlobals()
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
