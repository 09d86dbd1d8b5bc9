// One referral across subdomains and the site's own server, in Chromium. Two host names of one
// site, www.shop.test and app.shop.test, are mapped to loopback: each is its own origin with its
// own localStorage, and only the first-party cookie on shop.test (data-cookie-domain) carries the
// referral from one to the other. Then the script and the API served under /referral on the
// page's own origin.
import type { BrowserContext } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { readAttribution, recordSignup } from '../../src/server.ts'
import { FAST, SEEDED_CAMPAIGN } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { startFirstPartyOrigin } from './support/servers.ts'
import { flush, useSiteNames } from './support/site-names.ts'
import { buildOf, DIST } from './support/two-builds.ts'
import { widgetPage } from './support/widget-page.ts'

const WWW = 'www.shop.test'
const APP = 'app.shop.test'
const { h, on, visit } = useSiteNames([WWW, APP])

/** The landing page and the sign-up page, both carrying the script tag with `attributes`. */
function sitePages(attributes: Record<string, string>) {
  const html = widgetPage(h.service, { panel: false, attributes })
  h.host.page('/landing', { html })
  h.host.page('/signup', { html })
}

const attributionCookies = async (context: BrowserContext) =>
  (await context.cookies()).filter((cookie) => cookie.name === 'referral_attribution')

/** A visit through alice's link on www, then a signup of carol's on app. */
async function clickThenSignup(context: BrowserContext, attributes: Record<string, string>) {
  const code = await h.linkCode('alice')
  sitePages(attributes)
  const www = await visit(context, on(WWW, `/landing?ref=${code}`))
  await flush(www)
  const app = await visit(context, on(APP, '/signup'))
  await callReferral(app, 'track', 'signup', { userId: 'carol' })
  await flush(app)
  return { code, www, app }
}

describe('data-cookie-domain across two subdomains', () => {
  it('a click on www and a signup on app: the service counts one click and one conversion', async () => {
    const context = await h.newContext()
    const { code, www, app } = await clickThenSignup(context, { 'cookie-domain': 'shop.test' })

    const cookies = await attributionCookies(context)
    expect(cookies).toEqual([
      expect.objectContaining({ domain: '.shop.test', path: '/', sameSite: 'Lax', secure: false }),
    ])
    const seenOnWww = (await callReferral(www, 'getAttribution')) as { visitorId: string }
    expect(seenOnWww).toMatchObject({ code })
    expect(await callReferral(app, 'getAttribution')).toEqual(seenOnWww)
    // Max-Age is the seeded campaign's window, 30 days.
    const days = ((cookies[0]?.expires ?? 0) * 1000 - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)

    await expect
      .poll(() => h.stats(), FAST)
      .toEqual({
        totalClicks: 1,
        totalConversions: 1,
        totalRewardsIssued: 2,
      })
    // The cookie's module came after the tracking part, once per page, on these pages only: on
    // www with the arrival's delivery built in; on app, where the referral is adopted from the
    // cookie and nothing waits to be sent, delivery came with the signup.
    const files = h.service.requests.map((request) => request.path).filter((p) => p.endsWith('.js'))
    expect(files).toEqual([
      '/referral-widget.js',
      '/referral-widget-tracking-delivery.js',
      '/referral-widget-cookie.js',
      '/referral-widget.js',
      '/referral-widget-tracking.js',
      '/referral-widget-cookie.js',
      '/referral-widget-delivery.js',
    ])
  })

  it('a cookie file that cannot be loaded: one clear error, and tracking goes on without the cookie', async () => {
    const context = await h.newContext()
    await context.route('**/referral-widget-cookie.js', (route) => route.abort('connectionreset'))
    const code = await h.linkCode('alice')
    sitePages({ 'cookie-domain': 'shop.test' })
    const { page, log } = await h.open(context)
    await page.goto(on(WWW, `/landing?ref=${code}`))
    await waitForApi(page)
    await flush(page)
    expect(log.console.filter((line) => line.startsWith('error: [referral]'))).toEqual([
      expect.stringContaining(
        '[referral] The attribution cookie could not be loaded from referral-widget-cookie.js beside the script; the referral stays on this subdomain.',
      ),
    ])
    expect(await attributionCookies(context)).toEqual([])
    expect(await callReferral(page, 'getAttribution')).toMatchObject({ code })
    await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  })

  it('the same visit without data-cookie-domain: the signup is counted, but no conversion', async () => {
    const context = await h.newContext()
    const { app } = await clickThenSignup(context, {})
    expect(await attributionCookies(context)).toEqual([])
    expect(await callReferral(app, 'getAttribution')).toBeNull()
    await expect.poll(() => h.acceptedCounts().size, FAST).toBe(2) // the click and the signup
    expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 0 })
  })

  it('consent required: no cookie until consent(true); consent(false) on app deletes it', async () => {
    const code = await h.linkCode('alice')
    sitePages({ 'cookie-domain': 'shop.test', consent: 'required' })
    const context = await h.newContext()
    const www = await visit(context, on(WWW, `/landing?ref=${code}`))
    await flush(www)
    expect(await attributionCookies(context)).toEqual([])
    expect(h.eventRequests()).toEqual([])

    await callReferral(www, 'consent', true)
    await expect.poll(async () => (await attributionCookies(context)).length, FAST).toBe(1)

    const app = await visit(context, on(APP, '/signup'))
    await callReferral(app, 'consent', true)
    await callReferral(app, 'track', 'signup', { userId: 'carol' })
    await flush(app)
    await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1, totalConversions: 1 })

    await callReferral(app, 'consent', false)
    expect(await attributionCookies(context)).toEqual([])
  })

  it('with data-honor-gpc and the signal: no cookie, no click, and the signup on app converts nothing', async () => {
    const context = await h.newContext()
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
    })
    await clickThenSignup(context, { 'cookie-domain': 'shop.test', 'honor-gpc': 'true' })
    expect(await attributionCookies(context)).toEqual([])
    await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1) // the signup alone
    expect(await h.stats()).toMatchObject({ totalClicks: 0, totalConversions: 0 })
  })

  it('the server helpers against a real browser visit: the Cookie header parsed back, recorded as a conversion', async () => {
    const code = await h.linkCode('alice')
    sitePages({ 'cookie-domain': 'shop.test' })
    h.host.page('/welcome', { html: '<!doctype html><title>Welcome</title>' })
    const headers: Array<string | undefined> = []
    h.host.server.on('request', (request) => {
      if (request.url === '/welcome') headers.push(request.headers.cookie)
    })
    const context = await h.newContext()
    const www = await visit(context, on(WWW, `/landing?ref=${code}`))
    await flush(www)
    await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)

    // The sign-up form's handler on app's server receives the browser's Cookie header.
    const { page } = await h.open(context)
    await page.goto(on(APP, '/welcome'))
    expect(headers).toHaveLength(1)
    const attribution = readAttribution(headers[0])
    expect(attribution).toEqual(await callReferral(www, 'getAttribution'))
    expect(attribution?.code).toBe(code)

    const result = await recordSignup({
      secretKey: 'sk_test_acme',
      apiBase: h.service.url,
      userId: 'dave',
      attribution,
    })
    expect(result.status).toBe('accepted')
    expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 1 })
  })
})

describe('the script and the API under /referral on the page’s own origin', () => {
  it('data-api="/referral": the panel is ready, a click and a signup are counted, nothing leaves the origin', async () => {
    const site = await startFirstPartyOrigin(pkg.version)
    // The build's own URL, as the service says to paste it.
    const build = buildOf(DIST)
    try {
      h.allow(site.url)
      const admin = async (method: string, path: string, body?: unknown) => {
        const response = await site.service.app.request(`/referral${path}`, {
          method,
          headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        return (await response.json()) as Record<string, unknown>
      }
      const { code } = await admin('POST', '/v1/links', {
        campaignId: SEEDED_CAMPAIGN,
        referrerId: 'alice',
      })
      const url = site.page(
        '/',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><div data-referral-widget></div>
<script async src="/referral/v${build}/referral-widget.js" data-key="pk_test_acme" data-api="/referral"></script>
</body></html>`,
      )
      const context = await h.newContext()
      const { page, log } = await h.open(context)
      await page.goto(`${url}?ref=${String(code)}`)
      await page.locator(READY_ROOT).waitFor()
      await waitForApi(page)
      await callReferral(page, 'track', 'signup', { userId: 'carol' })
      await flush(page)

      await expect
        .poll(async () => (await admin('GET', `/v1/campaigns/${SEEDED_CAMPAIGN}`)).stats, FAST)
        .toMatchObject({ totalClicks: 1, totalConversions: 1 })
      const paths = log.requests.map((request) => new URL(request))
      expect(paths.every((request) => request.origin === site.url)).toBe(true)
      expect(paths.map((request) => request.pathname)).toEqual(
        expect.arrayContaining([
          `/referral/v${build}/referral-widget.js`,
          `/referral/v${build}/referral-widget-ui.js`,
          '/referral/v1/events',
        ]),
      )
    } finally {
      await site.close()
    }
  })
})
