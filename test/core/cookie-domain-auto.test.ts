// cookieDomain 'auto': the widget finds the site's registrable domain itself and keeps the
// attribution cookie there, so a site owner need not name it. The cookie store refuses public
// suffixes (`test`, `co.uk`) as a browser does.
import { describe, expect, it, vi } from 'vitest'
import { sendAll, sentEvents, settle, setUp, useAttributionClock } from '../support/cookie-world.ts'

useAttributionClock()

const auto = { cookieDomain: 'auto' }

describe("cookieDomain: 'auto'", () => {
  it('keeps the cookie on the registrable domain: a click on www and a signup on app are one conversion', async () => {
    const { world, code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`, auto)
    await sendAll()
    expect(browser.cookies()).toEqual([
      expect.objectContaining({ name: 'referral_attribution', domain: 'shop.test' }),
    ])
    const app = page('app.shop.test', '/signup', auto)
    expect(app.getAttribution()).toEqual(www.getAttribution())
    const signups = sentEvents(app)
    app.track('signup', { userId: 'carol' })
    await sendAll()
    expect(signups).toEqual([expect.objectContaining({ code, userId: 'carol' })])
    const { stats } = await world.campaign()
    expect(stats).toMatchObject({ totalClicks: 1, totalConversions: 1 })
    www.destroy()
    app.destroy()
  })

  it('under a two-label public suffix: example.co.uk, seen from another subdomain', async () => {
    const { code, browser, page } = await setUp()
    page('a.shop.example.co.uk', `/?ref=${code}`, auto).destroy()
    expect(browser.cookies()).toEqual([
      expect.objectContaining({ name: 'referral_attribution', domain: 'example.co.uk' }),
    ])
    expect(page('www.example.co.uk', '/', auto).getAttribution()?.code).toBe(code)
  })

  it.each(['localhost', '127.0.0.1', 'intranet'])(
    'on %s the cookie is host-only, with no Domain attribute',
    async (host) => {
      const { code, browser, page } = await setUp()
      page(host, `/?ref=${code}`, auto).destroy()
      expect(browser.cookies()).toEqual([
        expect.objectContaining({ name: 'referral_attribution', domain: host, hostOnly: true }),
      ])
      expect(browser.writes.map(({ cookie }) => cookie)).toEqual([
        expect.not.stringMatching(/Domain=/),
      ])
    },
  )

  it('consent required: not even a test cookie before consent(true); consent(false) deletes it', async () => {
    const { code, browser, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`, { ...auto, consent: 'required' })
    await settle()
    expect(browser.writes).toEqual([])
    www.consent(true)
    expect(browser.cookies()).toEqual([expect.objectContaining({ domain: 'shop.test' })])
    www.consent(false)
    expect(browser.cookies()).toEqual([])
    www.destroy()
  })

  it('with honorGpc and the signal: nothing written, not even a test cookie', async () => {
    const { code, browser, page } = await setUp()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    page('www.shop.test', `/?ref=${code}`, { ...auto, honorGpc: true, gpc: true }).destroy()
    expect(browser.writes).toEqual([])
  })

  it('forget() on a subdomain that never wrote deletes the cookie another one wrote', async () => {
    const { code, browser, page } = await setUp()
    page('www.shop.test', `/?ref=${code}`, auto).destroy()
    const app = page('app.shop.test', '/', auto)
    app.forget()
    expect(browser.cookies()).toEqual([])
    app.destroy()
  })
})
