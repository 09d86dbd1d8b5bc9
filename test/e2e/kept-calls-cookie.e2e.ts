// A sign-up tracked through the stub before the loader runs, before its tracking part runs, or
// after, is credited as if the whole widget had been there when it was called, wherever the
// referral is held outside the address: the site's shared cookie (data-cookie-domain, named or
// "auto") written on www.shop.test and read on app.shop.test; the page's own storage under the
// first-touch and last-touch rules; the HttpOnly cookie the site's server keeps
// (keepAttribution), read by the server once Safari has deleted all that a script wrote. The
// service's counts are the judge. The hand-offs carried in the address: kept-calls-handoff.e2e.ts.
import { describe, expect, it } from 'vitest'
import { FAST } from './support/harness.ts'
import { sevenDaysInSafari, useKeepingSites } from './support/keeping-site.ts'
import { callsBefore, expectCounted, signUpAt, TIMINGS, type Timing } from './support/kept-calls.ts'
import { flush, useSiteNames } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const WWW = 'www.shop.test'
const APP = 'app.shop.test'
const { h, on, visit } = useSiteNames([WWW, APP])

const startSite = useKeepingSites(h)

describe.each(['shop.test', 'auto'])(
  'data-cookie-domain="%s": arrival on www, sign-up on app',
  (domain) => {
    it.each(TIMINGS)('the sign-up made %s converts', async (timing) => {
      const code = await h.linkCode('alice')
      const attributes = { 'cookie-domain': domain }
      h.host.page('/landing', { html: widgetPage(h.service, { panel: false, attributes }) })
      const before = callsBefore(timing)
      h.host.page('/signup', { html: widgetPage(h.service, { panel: false, attributes, before }) })
      const context = await h.newContext()
      const www = await visit(context, on(WWW, `/landing?ref=${code}`))
      await flush(www)
      const cookies = async () =>
        (await context.cookies()).map((cookie) => ({ name: cookie.name, domain: cookie.domain }))
      await expect
        .poll(cookies, FAST)
        .toEqual([{ name: 'referral_attribution', domain: '.shop.test' }])

      await signUpAt(h, {
        timing,
        context,
        open: async (waitUntil) => {
          const { page } = await h.open(context)
          await page.goto(on(APP, '/signup'), { waitUntil })
          return page
        },
      })
      await expectCounted(h, { clicks: 1, conversions: 1, events: 2 })
    })
  },
)

/** What the service credits to a link: its clicks and conversions. */
async function credited(code: string) {
  const { body } = await h.admin('GET', `/v1/links/${code}/summary`)
  const { clicks, conversions } = body as { clicks: number; conversions: number }
  return { clicks, conversions }
}

describe.each([
  { rule: 'first', credits: 'alice' },
  { rule: 'last', credits: 'bob' },
] as const)('data-attribution="$rule": through alice’s link, then bob’s', ({ rule, credits }) => {
  it.each(TIMINGS)(`the sign-up made %s credits ${credits}`, async (timing) => {
    const codes = { alice: await h.linkCode('alice'), bob: await h.linkCode('bob') }
    const attributes = { attribution: rule }
    h.host.page('/', { html: widgetPage(h.service, { panel: false, attributes }) })
    const before = callsBefore(timing)
    h.host.page('/signup', { html: widgetPage(h.service, { panel: false, attributes, before }) })
    const context = await h.newContext()
    const { page } = await h.open(context)
    for (const code of [codes.alice, codes.bob]) {
      await page.goto(new URL(`/?ref=${code}`, h.host.url).href)
      await flush(page)
    }
    await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(2)

    await signUpAt(h, {
      timing,
      context,
      open: async (waitUntil) => {
        await page.goto(new URL('/signup', h.host.url).href, { waitUntil })
        return page
      },
    })
    await expectCounted(h, { clicks: 2, conversions: 1, events: 3 })
    const other = credits === 'alice' ? 'bob' : 'alice'
    expect(await credited(codes[credits])).toEqual({ clicks: 1, conversions: 1 })
    expect(await credited(codes[other])).toEqual({ clicks: 1, conversions: 0 })
  })
})

/**
 * The site of keep-attribution.e2e.ts, the tag with data-cookie-domain="auto": its /welcome page
 * (with a banner, so its tracking part runs by itself) signs carol up in the browser at `timing`,
 * and its server records her sign-up too.
 */
function keepingSite(timing: Timing) {
  const attributes = { 'cookie-domain': 'auto' }
  const page = widgetPage(h.service, { panel: false, attributes })
  const welcome = widgetPage(h.service, {
    panel: false,
    banner: true,
    attributes,
    before: callsBefore(timing),
  })
  return startSite((path) => (path === '/welcome' ? welcome : page))
}

describe('the HttpOnly cookie the site’s server keeps, after Safari deleted what a script wrote', () => {
  it.each(TIMINGS)(
    'the sign-up made %s in the browser, and recorded by the server: one conversion',
    async (timing) => {
      const code = await h.linkCode('alice')
      const site = await keepingSite(timing)
      const context = await h.newContext()
      const { page } = await h.open(context)
      await page.goto(`${site}/?ref=${code}`)
      await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)
      await page.goto(`${site}/pricing`) // the next request carries the widget's cookie
      await sevenDaysInSafari(context, site)
      expect((await context.cookies()).map(({ name, httpOnly }) => ({ name, httpOnly }))).toEqual([
        { name: 'referral_kept', httpOnly: true },
      ])

      const welcome = await signUpAt(h, {
        timing,
        context,
        open: async (waitUntil) => {
          await page.goto(`${site}/welcome`, { waitUntil })
          return page
        },
      })
      const recorded = await welcome.evaluate(async () => {
        const answer = await fetch('/signup', { method: 'POST', body: '{"userId":"carol"}' })
        return answer.json()
      })
      expect(recorded).toMatchObject({ status: 'accepted' })
      // The page's events: the click and the browser's sign-up (the server's goes with its key).
      await expectCounted(h, { clicks: 1, conversions: 1, events: 2 })
    },
  )
})
