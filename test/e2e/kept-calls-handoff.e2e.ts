// A sign-up tracked through the stub before the loader runs, before its tracking part runs, or
// after, is credited as if the whole widget had been there when it was called, where the referral
// arrives in the address as a hand-off: h1 from www.shop.test to app.other.test (data-outbound);
// c1, carried from a shop whose visitor has not answered its consent banner, to app.other.test
// (whose tag asks none) or to the shop's own next page, which gets consent and then the sign-up.
// The service's counts are the judge. Referrals held in cookies and storage:
// kept-calls-cookie.e2e.ts.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { FAST } from './support/harness.ts'
import {
  type Call,
  callsBefore,
  expectCounted,
  SIGNUP,
  signUpAt,
  TIMINGS,
  type Timing,
} from './support/kept-calls.ts'
import { flush, useSiteNames } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const SHOP = 'www.shop.test'
const APP = 'app.other.test'
const { h, on, visit } = useSiteNames([SHOP, APP])

interface Source {
  name: string
  /** The shop's landing page's tag. */
  shop: Record<string, string>
  /** Where its link leads: the sign-up page, on app or on the shop itself. */
  to: typeof SHOP | typeof APP
  /** The sign-up page's tag. */
  signup: Record<string, string>
  /** What the sign-up page calls. */
  calls: readonly Call[]
  /** The hand-off the link carries. */
  handoff: 'h1' | 'c1'
  /** The landing page sends the click (else the sign-up page does, once consent allows). */
  clickOnShop: boolean
}

const SOURCES: Source[] = [
  {
    name: 'h1 to another domain (data-outbound)',
    shop: { outbound: APP },
    to: APP,
    signup: {},
    calls: [SIGNUP],
    handoff: 'h1',
    clickOnShop: true,
  },
  {
    name: 'c1 to another domain, consent unanswered on the shop, none asked on app',
    shop: { outbound: APP, consent: 'required' },
    to: APP,
    signup: {},
    calls: [SIGNUP],
    handoff: 'c1',
    clickOnShop: false,
  },
  {
    name: 'c1 to the shop’s next page, which gets consent, then the sign-up',
    shop: { consent: 'required' },
    to: SHOP,
    signup: { consent: 'required' },
    calls: [['consent', true], SIGNUP],
    handoff: 'c1',
    clickOnShop: false,
  },
]

/** The shop's landing page, its link to the sign-up page, and that page with its calls. */
function sitePages(source: Source, timing: Timing) {
  const signup = on(source.to, '/signup?plan=pro')
  h.host.page('/landing', {
    html: widgetPage(h.service, {
      panel: false,
      attributes: source.shop,
      after: `<a id="signup" href="${signup}">Sign up</a>`,
    }),
  })
  h.host.page('/signup', {
    html: widgetPage(h.service, {
      panel: false,
      title: 'Sign up',
      attributes: source.signup,
      before: callsBefore(timing, source.calls),
    }),
  })
  return signup
}

/** Follows the shop's link: the sign-up page is asked for with the hand-off in its address. */
async function follow(page: Page, source: Source, waitUntil: 'load' | 'domcontentloaded') {
  const asked: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest()) asked.push(request.url())
  })
  await Promise.all([
    page.waitForURL((url) => url.hostname === source.to && url.pathname === '/signup', {
      waitUntil,
    }),
    page.click('#signup'),
  ])
  expect(asked).toEqual([expect.stringMatching(`[?&]ref_handoff=${source.handoff}\\.`)])
  return page
}

describe.each(SOURCES)('a hand-off: $name', (source) => {
  it.each(TIMINGS)('the sign-up made %s converts', async (timing) => {
    const code = await h.linkCode('alice')
    sitePages(source, timing)
    const context = await h.newContext()
    const shop = await visit(context, on(SHOP, `/landing?ref=${code}`))
    await flush(shop)
    if (source.clickOnShop)
      await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)
    else expect(h.eventRequests()).toEqual([])

    const page = await signUpAt(h, {
      timing,
      context,
      open: (waitUntil) => follow(shop, source, waitUntil),
      calls: source.calls,
      keptIn: source.signup.consent === 'required' ? 'memory' : 'storage',
    })
    await expectCounted(h, { clicks: 1, conversions: 1, events: 2 })
    // The hand-off left the address bar once taken.
    await expect.poll(() => page.url(), FAST).toBe(on(source.to, '/signup?plan=pro'))
  })
})
