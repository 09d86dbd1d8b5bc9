// Global Privacy Control: with `honorGpc`, a visitor whose browser sends the signal is not
// recorded as having arrived through a link. Without the option, the signal changes nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import { createWorld } from '../support/harness.ts'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9) })
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const settle = () => vi.advanceTimersByTimeAsync(10)
const referralKeys = (storage: StorageLike) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')
    .filter((key) => key.startsWith('referral:'))
    .map((key) => key.replace(/^referral:test:[a-z0-9]+:/, ''))
    .sort()

describe('honorGpc', () => {
  it('a visitor with the signal arriving through a link: no click, no stored code, the address still cleaned', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const world = createWorld()
    const code = await world.makeLink('alice')
    const storage = createMemoryStorage()
    const replaced: string[] = []
    const tab = world.tab({
      storage,
      honorGpc: true,
      gpc: true,
      href: `https://shop.test/?ref=${code}&utm=x`,
      replaceUrl: (url) => replaced.push(url),
    })
    const sent: unknown[] = []
    tab.on('event:sent', ({ event }) => sent.push(event))
    await settle()

    expect(tab.getAttribution()).toBeNull()
    expect(tab.$attribution.get()).toBeNull()
    expect(referralKeys(storage)).not.toContain('attribution')
    expect(referralKeys(storage)).not.toContain('clicks')
    expect(replaced).toEqual(['https://shop.test/?utm=x'])
    expect(info).toHaveBeenCalledWith(
      '[referral] Global Privacy Control is on: this referral visit is not recorded.',
    )

    // A click recorded by hand is declined the same way; a signup still goes, without a code.
    expect(tab.track('click', { code })).toBe(false)
    expect(tab.track('signup', { userId: 'carol' })).toBe(true)
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    expect(sent).toEqual([expect.objectContaining({ type: 'signup', userId: 'carol' })])
    expect(sent[0]).not.toHaveProperty('code')
    expect(world.eventRequests()).toHaveLength(1)
    const stats = (await world.campaign()).stats
    expect(stats.totalClicks).toBe(0)
    expect(stats.totalConversions).toBe(0)
    tab.destroy()
  })

  it('without the signal, honorGpc records the visit as usual', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({ honorGpc: true, gpc: false, href: `https://shop.test/?ref=${code}` })
    await settle()
    expect(tab.getAttribution()?.code).toBe(code)
    expect((await world.campaign()).stats.totalClicks).toBe(1)
    tab.destroy()
  })

  it('without honorGpc the signal changes nothing (the default)', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({ gpc: true, href: `https://shop.test/?ref=${code}` })
    await settle()
    expect(tab.getAttribution()?.code).toBe(code)
    expect((await world.campaign()).stats.totalClicks).toBe(1)
    tab.destroy()
  })

  it('refuses a value that is not a boolean, before anything is stored', () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    expect(() => world.tab({ storage, honorGpc: 'yes' as unknown as boolean })).toThrow(
      'honorGpc="yes" is refused: use true or false.',
    )
    expect(storage.length).toBe(0)
  })
})
