// Records the loader kept (core/kept.ts) and two tabs: a record's event has the same id in every
// tab, and two tabs starting at once may both take one before either removed it, or one may take
// it after the other's pass had it confirmed. Either way it goes out in one request, counted once.
import { describe, expect, it, vi } from 'vitest'
import { keptKey, keptText } from '../../src/core/kept.ts'
import { parsePublicKey } from '../../src/core/keys.ts'
import { ids, record, storedQueue, useDeliveryScenarios } from '../support/delivery-scenarios.ts'
import { MINUTE, settle } from '../support/delivery-world.ts'
import { createFakeLocks } from '../support/fake-locks.ts'

const { scene, open, idsInRequests, counted } = useDeliveryScenarios()

const NAMESPACE = `referral:test:${parsePublicKey('pk_test_acme').hash}:`

describe('a kept record in two tabs', () => {
  it('taken by both at once: one request carries it, counted once', async () => {
    const storage = scene.world.createMemoryStorage()
    const { locks } = createFakeLocks()
    const key = keptKey(NAMESPACE, 1234.5, 0)
    const text = keptText('signup', ['kept-user', await scene.world.makeLink('alice')]) ?? ''
    // Offline, so both tabs have stored it before either sends; each read the record before the
    // other removed it, so both took it.
    scene.world.setOnline(false)
    storage.setItem(key, text)
    const a = open({ storage, storageEvents: true, locks })
    storage.setItem(key, text)
    const b = open({ storage, storageEvents: true, locks })
    const seen = [a, b].map(record)
    await settle()
    const stored = storedQueue(storage).map((event) => event.id)
    expect(stored).toEqual([expect.stringMatching(/^kept_\w+_0_/), stored[0]])

    scene.world.setOnline(true)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(idsInRequests()).toEqual([stored[0]])
    expect(await counted([stored[0] ?? ''])).toEqual(['duplicate']) // counted once already
    expect(new Set(seen.flatMap((log) => ids(log.sent)))).toEqual(new Set([stored[0]]))
    expect([a.queueSize(), b.queueSize()]).toEqual([0, 0])
    expect(storedQueue(storage)).toEqual([])
  })

  it('taken by the second after the first had it confirmed: not sent again', async () => {
    const storage = scene.world.createMemoryStorage()
    const { locks } = createFakeLocks()
    const key = keptKey(NAMESPACE, 1234.5, 0)
    const text = keptText('signup', ['kept-user', await scene.world.makeLink('alice')]) ?? ''
    storage.setItem(key, text)
    const a = open({ storage, storageEvents: true, locks })
    await vi.advanceTimersByTimeAsync(MINUTE)
    const [sent] = idsInRequests()
    expect(sent).toMatch(/^kept_\w+_0_/)
    // The second tab read the record before the first tab's removal reached it.
    storage.setItem(key, text)
    const b = open({ storage, storageEvents: true, locks })
    const seen = record(b)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(idsInRequests()).toEqual([sent])
    expect(seen.dropped).toEqual([])
    expect([a.queueSize(), b.queueSize()]).toEqual([0, 0])
    expect(storedQueue(storage)).toEqual([])
  })

  it('thirty taken by the second after the first had them confirmed: none sent again', async () => {
    const storage = scene.world.createMemoryStorage()
    const { locks } = createFakeLocks()
    const code = await scene.world.makeLink('alice')
    // Kept once: each record's text (and so its event's id) the same whenever it is read.
    const texts = Array.from(
      { length: 30 },
      (_, n) => keptText('signup', [`kept-${n}`, code]) ?? '',
    )
    const keep = () => {
      for (const [n, text] of texts.entries()) storage.setItem(keptKey(NAMESPACE, 1234.5, n), text)
    }
    keep()
    const a = open({ storage, storageEvents: true, locks })
    await vi.advanceTimersByTimeAsync(MINUTE)
    const sent = idsInRequests()
    expect(new Set(sent).size).toBe(30)
    // The second tab read all thirty before the first tab's removals reached it.
    keep()
    const b = open({ storage, storageEvents: true, locks })
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(idsInRequests()).toEqual(sent)
    expect([a.queueSize(), b.queueSize()]).toEqual([0, 0])
    expect(storedQueue(storage)).toEqual([])
  })

  it('forgets the confirmed ones ten minutes on: nothing of them is left in storage', async () => {
    const storage = scene.world.createMemoryStorage()
    const { locks } = createFakeLocks()
    storage.setItem(
      keptKey(NAMESPACE, 1234.5, 0),
      keptText('signup', ['kept-user', await scene.world.makeLink('alice')]) ?? '',
    )
    open({ storage, storageEvents: true, locks })
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(storage.getItem(`${NAMESPACE}done`)).toContain(idsInRequests()[0])
    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    const b = open({ storage, storageEvents: true, locks })
    b.track('signup', { userId: 'later' })
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(idsInRequests()).toHaveLength(2)
    expect(storage.getItem(`${NAMESPACE}done`)).toBeNull()
  })
})
