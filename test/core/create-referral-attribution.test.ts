// createReferral as an SPA developer meets it: attribution from the address bar (captured,
// cleaned, refused when hostile, expired), and its storage namespacing and forget(). Time is the
// fake clock's (useFakeClock).
import { describe, expect, it, vi } from 'vitest'
import { createReferral } from '../../src/core/create-referral.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { DAY, tick as settle, useFakeClock } from '../support/delivery-world.ts'
import { API, createWorld } from '../support/harness.ts'

const START = Date.UTC(2026, 10, 2, 9)
useFakeClock(START)

describe('attribution from the address bar', () => {
  it('captures a code from any configured parameter and cleans only those parameters', async () => {
    const world = createWorld()
    const code = await world.makeLink()
    const replaced: string[] = []
    const tab = world.tab({
      href: `https://shop.test/pricing?plan=pro&via=${code}#faq`,
      refParam: 'ref,via',
      replaceUrl: (url) => replaced.push(url),
    })
    expect(tab.getAttribution()).toMatchObject({ code, capturedAt: new Date(START).toISOString() })
    expect(tab.getAttribution()?.visitorId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(replaced).toEqual(['https://shop.test/pricing?plan=pro#faq'])
    tab.destroy()
  })

  it('leaves the address bar alone with cleanUrl: false', () => {
    const world = createWorld()
    const replaced: string[] = []
    const tab = world.tab({
      href: 'https://shop.test/?ref=AbCdEfGh12',
      cleanUrl: false,
      replaceUrl: (url) => replaced.push(url),
    })
    expect(tab.getAttribution()?.code).toBe('AbCdEfGh12')
    expect(replaced).toEqual([])
    tab.destroy()
  })

  it('never stores or sends a hostile code, and still removes it from the address bar', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const replaced: string[] = []
    const tab = world.tab({
      storage,
      href: `https://shop.test/?ref=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`,
      replaceUrl: (url) => replaced.push(url),
    })
    await settle()
    expect(tab.getAttribution()).toBeNull()
    expect(tab.queueSize()).toBe(0)
    expect(replaced).toEqual(['https://shop.test/'])
    expect(world.eventRequests()).toEqual([])
    tab.destroy()
  })

  it('expires after the campaign’s attribution window', async () => {
    const world = createWorld()
    const code = await world.makeLink()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage, href: `https://shop.test/?ref=${code}` })
    await settle()
    tab.destroy()
    vi.setSystemTime(START + 30 * DAY - 1000)
    const later = world.tab({ storage })
    await settle()
    expect(later.getAttribution()?.code).toBe(code)
    later.destroy()
    vi.setSystemTime(START + 30 * DAY + 1000)
    const tooLate = world.tab({ storage })
    await settle()
    expect(tooLate.getAttribution()).toBeNull()
    tooLate.destroy()
  })
})

describe('storage', () => {
  it('keeps each key’s data under referral:<mode>:<hash>: and never stores the key itself', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage, userId: 'alice', href: 'https://shop.test/?ref=AbCdEfGh12' })
    await tab.getLink()
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')
    expect(keys.length).toBeGreaterThan(2)
    for (const key of keys) expect(key).toMatch(/^referral:test:[a-z0-9]+:/)
    const dump = keys.map((key) => `${key}=${storage.getItem(key)}`).join('\n')
    expect(dump).not.toContain('pk_test_acme')
    tab.destroy()

    // A live key of the same organization and a key of another site never see these.
    const live = createReferral({
      publicKey: 'pk_live_acme',
      apiBase: API,
      storage,
      fetch: world.fetch,
      host: { href: () => undefined },
    })
    expect(live.getAttribution()).toBeNull()
    live.destroy()
  })

  it('forget() erases every key of this namespace and nothing else', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    storage.setItem('host-app:cart', '3 items')
    storage.setItem('referral:live:other:visitor', '{"v":1,"id":"v_someoneelse"}')
    const tab = world.tab({ storage, href: 'https://shop.test/?ref=AbCdEfGh12' })
    world.setOnline(false)
    expect(tab.getAttribution()).not.toBeNull()
    tab.forget()
    expect(tab.getAttribution()).toBeNull()
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i))
    expect(keys.filter((key) => key?.startsWith('referral:test:'))).toEqual([])
    expect(storage.getItem('host-app:cart')).toBe('3 items')
    expect(storage.getItem('referral:live:other:visitor')).not.toBeNull()
    tab.destroy()
  })
})
