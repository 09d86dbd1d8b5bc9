// The promises of delivery under a hostile world (issue: "delivery that keeps its promises"),
// bounded bodies: a poisoned store holds nothing back, an event outside the contract is refused
// as it is tracked, a large backlog goes in batches under the keepalive limit, and a request the
// browser refuses is cut in half until the rest goes.
// Each scenario counts the requests made, and checks with the service that every genuine event
// was counted exactly once.
import { describe, expect, it, vi } from 'vitest'
import { everyOnce, record, useDeliveryOutcomes } from '../support/delivery-outcomes.ts'
import { MINUTE, START, settle } from '../support/delivery-world.ts'
import { namespaceOf, seeded, storageKeys } from '../support/storage.ts'

const { scene, open, openReady, counted, intercept } = useDeliveryOutcomes()

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
