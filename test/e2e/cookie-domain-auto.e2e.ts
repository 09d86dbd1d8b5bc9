// data-cookie-domain="auto" in Chromium: the browser's own public-suffix list decides. Host names
// under co.uk (a two-label public suffix) are mapped to loopback; the widget must find
// example.co.uk by itself, leave no test cookie behind, and carry the referral to a sibling.
import { describe, expect, it } from 'vitest'
import { FAST } from './support/harness.ts'
import { callReferral } from './support/in-page.ts'
import { flush, useSiteNames } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const LANDING = 'a.shop.example.co.uk'
const APP = 'app.example.co.uk'
const { h, on, visit } = useSiteNames([LANDING, APP])

describe('data-cookie-domain="auto"', () => {
  it('under co.uk: the cookie on example.co.uk, no test cookie left, the sign-up on a sibling converts', async () => {
    const code = await h.linkCode('alice')
    const html = widgetPage(h.service, { panel: false, attributes: { 'cookie-domain': 'auto' } })
    h.host.page('/landing', { html })
    h.host.page('/signup', { html })
    const context = await h.newContext()
    const landing = await visit(context, on(LANDING, `/landing?ref=${code}`))
    await flush(landing)
    await expect
      .poll(
        async () => (await context.cookies()).map(({ name, domain }) => ({ name, domain })),
        FAST,
      )
      .toEqual([{ name: 'referral_attribution', domain: '.example.co.uk' }])

    const app = await visit(context, on(APP, '/signup'))
    expect(await callReferral(app, 'getAttribution')).toEqual(
      await callReferral(landing, 'getAttribution'),
    )
    await callReferral(app, 'track', 'signup', { userId: 'carol' })
    await flush(app)
    await expect
      .poll(() => h.stats(), FAST)
      .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  })

  it('on an IP address: a host-only cookie', async () => {
    const code = await h.linkCode('alice')
    const html = widgetPage(h.service, { panel: false, attributes: { 'cookie-domain': 'auto' } })
    h.host.page('/landing', { html })
    const context = await h.newContext()
    const url = new URL(`/landing?ref=${code}`, h.host.url)
    url.hostname = '127.0.0.1'
    h.allow(url.origin)
    const page = await visit(context, url.href)
    await flush(page)
    await expect
      .poll(
        async () => (await context.cookies()).map(({ name, domain }) => ({ name, domain })),
        FAST,
      )
      .toEqual([{ name: 'referral_attribution', domain: '127.0.0.1' }])
  })
})
