// consent: 'required' — nothing stored, no link or event sent until consent(true); a code seen
// meanwhile waits in memory; consent(false) erases everything, the choice included.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import { createWorld } from '../support/harness.ts'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9) })
})
afterEach(() => {
  vi.useRealTimers()
})

const keysOf = (storage: StorageLike) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '').sort()
const settle = () => vi.advanceTimersByTimeAsync(10)

describe('consent required', () => {
  it('stores nothing and sends no event or link before consent, then records the held code once', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const storage = createMemoryStorage()
    storage.setItem('site:theme', 'dark')
    const tab = world.tab({
      storage,
      consent: 'required',
      userId: 'bob',
      href: `https://shop.test/?ref=${code}`,
    })
    tab.track('signup', { userId: 'carol' })
    await settle()
    expect(keysOf(storage)).toEqual(['site:theme'])
    expect(world.sent.filter((r) => r.path !== '/v1/campaigns?status=active&limit=1')).toEqual([])
    expect(tab.getAttribution()?.code).toBe(code) // held in memory
    expect(tab.$link.get().status).not.toBe('ready')

    tab.consent(true)
    await settle()
    expect(keysOf(storage).some((key) => /^referral:test:[a-z0-9]+:consent$/.test(key))).toBe(true)
    expect(tab.queueSize()).toBe(0)
    expect(tab.$link.get().status).toBe('ready')
    const stats = (await world.campaign()).stats
    expect(stats.totalClicks).toBe(1)
    expect(stats.totalConversions).toBe(1)
    tab.destroy()
  })

  it('remembers the choice: the next visit stores and sends without asking again', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({ storage, consent: 'required' })
    first.consent(true)
    await settle()
    first.destroy()
    const second = world.tab({ storage, consent: 'required' })
    second.track('signup', { userId: 'dave' })
    await settle()
    expect(second.queueSize()).toBe(0)
    expect(world.eventRequests()).toHaveLength(1)
    second.destroy()
  })

  it('consent(false) erases every referral key, the choice included, and stops sending', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    storage.setItem('site:cart', '2')
    const tab = world.tab({
      storage,
      consent: 'required',
      href: 'https://shop.test/?ref=AbCdEfGh12',
    })
    tab.consent(true)
    await settle()
    expect(keysOf(storage).some((key) => key.startsWith('referral:'))).toBe(true)
    tab.consent(false)
    expect(keysOf(storage)).toEqual(['site:cart'])
    const before = world.eventRequests().length
    tab.track('signup', { userId: 'erin' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(world.eventRequests()).toHaveLength(before)
    expect(keysOf(storage)).toEqual(['site:cart'])
    tab.destroy()

    // Withdrawn consent is not remembered as consent: the next visit waits again.
    const next = world.tab({ storage, consent: 'required' })
    next.track('signup', { userId: 'frank' })
    await settle()
    expect(keysOf(storage)).toEqual(['site:cart'])
    next.destroy()
  })

  it('refuses an unknown consent value', () => {
    const world = createWorld()
    expect(() => world.tab({ consent: 'maybe' as 'required' })).toThrow(
      /consent="maybe" is refused: the only value is "required"/,
    )
  })
})

describe('without consent required', () => {
  it('stores and sends at once, and consent(false) still erases and stops', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage })
    tab.track('signup', { userId: 'gina' })
    await settle()
    expect(world.eventRequests()).toHaveLength(1)
    tab.consent(false)
    expect(keysOf(storage)).toEqual([])
    tab.track('signup', { userId: 'hank' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(world.eventRequests()).toHaveLength(1)
    tab.destroy()
  })
})
