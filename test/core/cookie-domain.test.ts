// cookieDomain: the referral captured on one subdomain is kept in a first-party cookie on the
// site's domain, adopted (code and visitor id) by the widget on another, so a signup there is
// one conversion with the click. Two "pages" on two hosts, each with its own storage, share one
// browser cookie store.
import { describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../../src/shared/errors.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import {
  START,
  sendAll,
  sentEvents,
  settle,
  setUp,
  useAttributionClock,
} from '../support/cookie-world.ts'
import { createWorld } from '../support/harness.ts'

const DAY = 24 * 60 * 60 * 1000

useAttributionClock()

/** The widget's cookie: the campaign's window (30 days, `u` in base 36) and the last-touch rule. */
const cookieValue = (code: string, visitorId: string, at: number) =>
  `v2.${code}.${visitorId}.${at.toString(36)}.u.l`

describe('cookieDomain', () => {
  it('a click on www and a signup on app make one conversion: the signup carries the click’s visitor and code', async () => {
    const { world, code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`)
    const clicks = sentEvents(www)
    await sendAll()
    const visitorId = clicks[0]?.visitorId ?? ''
    expect(clicks).toEqual([expect.objectContaining({ type: 'click', code })])
    expect(browser.cookies()).toEqual([
      {
        name: 'referral_attribution',
        value: cookieValue(code, visitorId, START),
        domain: 'shop.test',
      },
    ])

    const app = page('app.shop.test', '/signup')
    expect(app.getAttribution()).toEqual({
      code,
      visitorId,
      capturedAt: new Date(START).toISOString(),
    })
    const signups = sentEvents(app)
    app.track('signup', { userId: 'carol' })
    await sendAll()
    expect(signups).toEqual([
      expect.objectContaining({ type: 'signup', userId: 'carol', code, visitorId }),
    ])
    const { stats } = await world.campaign()
    expect(stats.totalClicks).toBe(1)
    expect(stats.totalConversions).toBe(1)
    www.destroy()
    app.destroy()
  })

  it('without cookieDomain the signup on app has no code and no conversion', async () => {
    const { world, code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`, { cookieDomain: undefined })
    await sendAll()
    expect(browser.cookies()).toEqual([])
    const app = page('app.shop.test', '/signup', { cookieDomain: undefined })
    expect(app.getAttribution()).toBeNull()
    app.track('signup', { userId: 'carol' })
    await sendAll()
    const { stats } = await world.campaign()
    expect(stats.totalClicks).toBe(1)
    expect(stats.totalConversions).toBe(0)
    www.destroy()
    app.destroy()
  })

  it('Max-Age is the campaign’s attribution window once known, 30 days until then', async () => {
    const { world, code, browser, page } = await setUp()
    await updateCampaign(world, { attributionWindow: '7d' })
    const tracking = page('www.shop.test', `/?ref=${code}`, { campaign: 'on-demand' })
    await settle()
    const maxAges = () => browser.writes.map(({ cookie }) => /Max-Age=(\d+)/.exec(cookie)?.[1])
    expect(maxAges()).toEqual([String(30 * 86400)]) // no campaign asked for: the default
    tracking.needCampaign()
    await settle()
    expect(maxAges().at(-1)).toBe(String(7 * 86400))
    tracking.destroy()
    // Seven days on, the cookie has gone: the next subdomain sees no referral.
    vi.setSystemTime(START + 7 * DAY + 1000)
    expect(page('app.shop.test', '/').getAttribution()).toBeNull()
  })

  it('a domain that is neither the page’s host nor a parent is a ConfigError naming it', async () => {
    const { page } = await setUp()
    expect(() => page('www.shop.test', '/', { cookieDomain: 'other.test' })).toThrow(
      new ConfigError(
        'cookieDomain',
        `cookieDomain="other.test" is refused: it is neither this page's host (www.shop.test) nor a parent of it, so the browser would refuse the cookie.`,
      ),
    )
    expect(() => page('www.shop.test', '/', { cookieDomain: 'https://shop.test' })).toThrow(
      /cookieDomain="https:\/\/shop.test" is refused: it must be a domain such as shop.example, or auto\./,
    )
  })

  it('consent required: no cookie before consent(true), the held code written then; consent(false) deletes it', async () => {
    const { world, code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`, { consent: 'required' })
    await settle()
    expect(browser.writes).toEqual([])
    www.consent(true)
    await sendAll()
    expect(browser.cookies()).toEqual([expect.objectContaining({ domain: 'shop.test' })])
    www.consent(false)
    expect(browser.cookies()).toEqual([])
    expect((await world.campaign()).stats.totalClicks).toBe(1)
    www.destroy()
  })

  it('declining on another subdomain deletes the cookie consented to elsewhere', async () => {
    const { code, browser, page } = await setUp()
    page('www.shop.test', `/?ref=${code}`).destroy()
    expect(browser.cookies()).toHaveLength(1)
    const app = page('app.shop.test', '/', { consent: 'required' })
    app.consent(false)
    expect(browser.cookies()).toEqual([])
    app.destroy()
  })

  it('forget() deletes the cookie: the next subdomain starts without the referral', async () => {
    const { code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`)
    await settle()
    expect(browser.cookies()).toHaveLength(1)
    www.forget()
    expect(browser.cookies()).toEqual([])
    expect(page('app.shop.test', '/').getAttribution()).toBeNull()
    www.destroy()
  })

  it('with honorGpc and the signal: no cookie written, none adopted', async () => {
    const { code, browser, page } = await setUp()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const www = page('www.shop.test', `/?ref=${code}`, { honorGpc: true, gpc: true })
    await settle()
    expect(browser.writes).toEqual([])
    // A cookie left by an earlier visit is not adopted either.
    browser
      .jar('www.shop.test')
      .set(`referral_attribution=${cookieValue(code, 'v_earlier_visit', START)}; Domain=shop.test`)
    const app = page('app.shop.test', '/', { honorGpc: true, gpc: true })
    expect(app.getAttribution()).toBeNull()
    www.destroy()
    app.destroy()
  })

  it('a forged or malformed cookie is ignored: no code, the visitor id not taken', async () => {
    const { browser, page } = await setUp()
    const jar = browser.jar('www.shop.test')
    jar.set(`referral_attribution=v1.<img>.v_attacker_01.${START.toString(36)}; Domain=shop.test`)
    const app = page('app.shop.test', '/signup')
    expect(app.getAttribution()).toBeNull()
    const signups = sentEvents(app)
    app.track('signup', { userId: 'carol' })
    await sendAll()
    expect(signups).toHaveLength(1)
    expect(signups[0]).not.toHaveProperty('code')
    expect(signups[0]?.visitorId).not.toBe('v_attacker_01')
    app.destroy()
  })

  it('a newer referral held on this subdomain wins over an older cookie', async () => {
    const { world, browser, page } = await setUp()
    const older = await world.makeLink('olga')
    browser
      .jar('www.shop.test')
      .set(
        `referral_attribution=${cookieValue(older, 'v_elsewhere_1', START - DAY)}; Domain=shop.test`,
      )
    const newer = await world.makeLink('nina')
    const storage = world.createMemoryStorage()
    page('app.shop.test', `/?ref=${newer}`, { storage, cookieDomain: undefined }).destroy()
    const app = page('app.shop.test', '/', { storage })
    expect(app.getAttribution()?.code).toBe(newer)
    app.destroy()
  })
})

describe('a relative apiBase', () => {
  it('is resolved against the page: every request goes to the page’s own origin under the path', async () => {
    const world = createWorld()
    const urls: string[] = []
    const tab = world.tab({
      apiBase: '/referral',
      href: 'https://shop.test/pricing?x=1',
      fetch: (input, init) => {
        urls.push(input)
        const url = new URL(input)
        return world.fetch(
          `http://service.test${url.pathname.replace(/^\/referral/, '')}${url.search}`,
          init,
        )
      },
    })
    tab.track('signup', { userId: 'carol' })
    await sendAll()
    expect(urls.length).toBeGreaterThan(1)
    for (const url of urls) expect(url).toMatch(/^https:\/\/shop\.test\/referral\/v1\//)
    expect((await world.campaign()).stats.totalClicks).toBe(0)
    expect(world.eventRequests()).toEqual([expect.objectContaining({ status: 200 })])
    tab.destroy()
  })

  it('is a ConfigError where there is no page to resolve it against', () => {
    const world = createWorld()
    expect(() => world.tab({ apiBase: '/referral' })).toThrow(
      /apiBase="\/referral" is refused: a path needs an http: or https: page/,
    )
    expect(() => world.tab({ apiBase: '//cdn.example/referral' })).toThrow(
      /apiBase="\/\/cdn.example\/referral" is refused/,
    )
  })
})
