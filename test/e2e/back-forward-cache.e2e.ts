// The host's back/forward cache (WIDGET.md section 9): a visitor goes from a page with the widget
// to another page of the site that runs it too, and presses Back. The page must come back from the
// cache (`pageshow` with `persisted`), and carry on: what waited is sent, the arrival is not
// recorded again, the panel is ready. Chromium with its cache on: Playwright turns it off by
// default (--disable-back-forward-cache), and the npm package's Chromium is a headless shell,
// which has none; these tests need a full Chromium (CHROMIUM_PATH=/usr/bin/chromium) and are
// skipped, saying so, where there is none. test/e2e/page-lifecycle.e2e.ts checks the same
// hand-over of the lock in every Chromium.
import type { Page } from 'playwright-core'
import { expect, it, type TestContext } from 'vitest'
import { platformSkip } from '../support/platform.ts'
import { backForwardCacheWorks, leaveAndComeBack, watchShows } from './support/back-forward.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, queueSize, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness({ backForwardCache: true })

let capable: boolean | undefined

/** Skips the test (a platform skip) where this Chromium has no back/forward cache. */
async function needCache(context: TestContext) {
  if (capable === undefined) {
    const plain = '<!doctype html><title>Plain</title><p>A page of the site.'
    capable = await backForwardCacheWorks(h.browser, {
      first: h.host.page('/plain-a', { html: plain, cacheable: true }),
      second: h.host.page('/plain-b', { html: plain, cacheable: true }),
    })
  }
  if (!capable)
    platformSkip(
      context,
      'this Chromium keeps no page in the back/forward cache (a headless shell); set CHROMIUM_PATH to a full Chromium',
    )
}

/** The site: the page under test and the next one, both running the widget. */
function site(first: Parameters<typeof widgetPage>[1]) {
  return {
    first: h.host.page('/first', { html: widgetPage(h.service, first), cacheable: true }),
    next: h.host.page('/next', {
      html: widgetPage(h.service, { panel: false, title: 'Next' }),
      cacheable: true,
    }),
  }
}

async function visit(url: string): Promise<Page> {
  const context = await h.newContext()
  const { page } = await h.open(context)
  await watchShows(page)
  await page.goto(url)
  await waitForApi(page)
  return page
}

it('a quiet page comes back from the cache when the next page runs the widget too', async (context) => {
  await needCache(context)
  const pages = site({ panel: false })
  const page = await visit(pages.first)
  const back = await leaveAndComeBack(page, pages.next, waitForApi)
  expect(back).toEqual({ restored: true, reasons: [] })
  expect(await queueSize(page)).toBe(0)
})

it('an arrival by a referral link comes back twice; its click is counted once', async (context) => {
  await needCache(context)
  const code = await h.linkCode('alice')
  const pages = site({ panel: false })
  const before = await h.stats()
  const page = await visit(`${pages.first}?ref=${code}`)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1)
  for (let time = 0; time < 2; time++) {
    const back = await leaveAndComeBack(page, pages.next, waitForApi)
    expect(back, `back ${time + 1}`).toEqual({ restored: true, reasons: [] })
  }
  expect(await callReferral(page, 'getAttribution')).toMatchObject({ code })
  await callReferral(page, 'flush')
  expect((await h.stats()).totalClicks - before.totalClicks).toBe(1)
})

it('a panel page comes back from the cache with its panel ready', async (context) => {
  await needCache(context)
  const pages = site({ attributes: { 'user-id': 'alice' } })
  const page = await visit(pages.first)
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="link"]').waitFor()
  const back = await leaveAndComeBack(page, pages.next, waitForApi)
  expect(back).toEqual({ restored: true, reasons: [] })
  await page.locator(READY_ROOT).waitFor()
  expect(await page.locator('[data-part="link"]').inputValue()).toMatch(/\?ref=/)
})

it('sign-ups queued while the service was unreachable are each accepted once after going away and back', async (context) => {
  await needCache(context)
  const pages = site({ panel: false })
  const page = await visit(pages.first)
  // The service is out of reach from this page until it is left.
  await page.route('**/v1/events', (route) => route.abort('connectionrefused'))
  for (let i = 0; i < 3; i++) await callReferral(page, 'track', 'signup', { userId: `away-${i}` })
  await expect.poll(() => queueSize(page), FAST).toBe(3)
  await page.unroute('**/v1/events')

  const back = await leaveAndComeBack(page, pages.next, waitForApi)
  expect(back).toEqual({ restored: true, reasons: [] })
  await callReferral(page, 'flush')
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(3)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1])
})
