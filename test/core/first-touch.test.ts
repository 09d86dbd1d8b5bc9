// attribution: 'first' | 'last': which referral a visitor's sign-up credits when they arrive
// through two links within the campaign's attribution window. Pages share one storage (the same
// browser); the service says which referrer converted.
import { describe, expect, it, vi } from 'vitest'
import { START, sendAll, useAttributionClock } from '../support/cookie-world.ts'
import { createCookieBrowser } from '../support/cookies.ts'
import { createWorld } from '../support/harness.ts'

const DAY = 24 * 60 * 60 * 1000
const SCOPE = { org: 'org_acme', mode: 'test' } as const

useAttributionClock()

/** alice's and bob's links, and one visitor's browser arriving through them. */
async function setUp(attribution?: 'first' | 'last') {
  const world = createWorld()
  const alice = await world.makeLink('alice')
  const bob = await world.makeLink('bob')
  const storage = world.createMemoryStorage()
  const visit = async (path: string) => {
    const tab = world.tab({
      href: `https://shop.test${path}`,
      storage,
      ...(attribution ? { attribution } : {}),
    })
    await sendAll()
    return tab
  }
  /** The referrers the service credited, in order. */
  const credited = () =>
    world.service.store
      .conversions(SCOPE, 'camp_acmeFriendsAndFamily')
      .map((conversion) => conversion.referrerId)
  const signUp = async (userId: string) => {
    const tab = await visit('/signup')
    tab.track('signup', { userId })
    await sendAll()
    return tab
  }
  return { world, alice, bob, visit, credited, signUp }
}

describe("attribution: 'last' (the default)", () => {
  it('the later code wins the sign-up', async () => {
    const { world, alice, bob, visit, credited, signUp } = await setUp()
    await visit(`/?ref=${alice}`)
    vi.setSystemTime(START + DAY)
    const later = await visit(`/?ref=${bob}`)
    expect(later.getAttribution()?.code).toBe(bob)
    await signUp('carol')
    expect(credited()).toEqual(['bob'])
    expect((await world.campaign()).stats.totalClicks).toBe(2)
  })
})

describe("attribution: 'first'", () => {
  it('a second code within the window records its click; the sign-up credits the first', async () => {
    const { world, alice, bob, visit, credited, signUp } = await setUp('first')
    const first = await visit(`/?ref=${alice}`)
    const { capturedAt } = first.getAttribution() ?? {}
    vi.setSystemTime(START + 10 * DAY)
    const later = await visit(`/?ref=${bob}`)
    expect(later.getAttribution()).toMatchObject({ code: alice, capturedAt })
    expect((await world.campaign()).stats.totalClicks).toBe(2)
    await signUp('carol')
    expect(credited()).toEqual(['alice'])
  })

  it('the first code arriving again keeps its first capture time: the window runs from the first touch', async () => {
    const { alice, bob, visit } = await setUp('first')
    await visit(`/?ref=${alice}`)
    vi.setSystemTime(START + 20 * DAY)
    await visit(`/?ref=${alice}`)
    vi.setSystemTime(START + 31 * DAY) // past the 30-day window of the first touch
    const later = await visit(`/?ref=${bob}`)
    expect(later.getAttribution()).toMatchObject({
      code: bob,
      capturedAt: new Date(START + 31 * DAY).toISOString(),
    })
  })

  it('after the window, the new code takes over and wins the sign-up', async () => {
    const { alice, bob, visit, credited, signUp } = await setUp('first')
    await visit(`/?ref=${alice}`)
    vi.setSystemTime(START + 30 * DAY + 1000)
    expect((await visit(`/?ref=${bob}`)).getAttribution()?.code).toBe(bob)
    await signUp('carol')
    expect(credited()).toEqual(['bob'])
  })

  it('an older referral from another subdomain (the shared cookie) replaces a later one held here', async () => {
    const world = createWorld()
    const alice = await world.makeLink('alice')
    const bob = await world.makeLink('bob')
    const browser = createCookieBrowser()
    const on = (host: string, path: string, storage = world.createMemoryStorage()) =>
      world.tab({
        href: `https://${host}${path}`,
        cookie: browser.jar(host),
        cookieDomain: 'shop.test',
        attribution: 'first',
        storage,
      })
    on('www.shop.test', `/?ref=${alice}`).destroy()
    vi.setSystemTime(START + DAY)
    const appStorage = world.createMemoryStorage()
    // bob's link lands on app before the cookie is read there: a page without the cookie option.
    world.tab({ href: `https://app.shop.test/?ref=${bob}`, storage: appStorage }).destroy()
    const app = on('app.shop.test', '/signup', appStorage)
    expect(app.getAttribution()?.code).toBe(alice)
    app.destroy()
  })
})

describe('the option', () => {
  it('anything but last or first is a ConfigError saying so', () => {
    const world = createWorld()
    expect(() => world.tab({ attribution: 'newest' as 'last' })).toThrow(
      'attribution="newest" is refused: use last or first.',
    )
  })
})
