// Pages that change without a reload (Turbo, htmx's boost, Astro's view transitions, Livewire's
// navigate): the next page's body is fetched and swapped in, its scripts run again, and the
// address moves with history.pushState. A panel or banner that comes with the new body is mounted
// with no code from the site, one that leaves is let go, a panel on both bodies comes back on the
// new one, and a sign-up the new page tracks counts once.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, visitWithoutReload, waitForApi } from './support/in-page.ts'
import { STUB, widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** A site page: the stub, then the tag in the body (as Turbo runs a body's scripts again). */
const sitePage = (path: string, options: Parameters<typeof widgetPage>[1] = {}) =>
  h.host.page(path, {
    html: widgetPage(h.service, {
      panel: false,
      attributes: { 'user-id': 'alice' },
      ...options,
      before: `<script>${STUB}</script>${options.before ?? ''}`,
    }),
  })

/** How many panels and banners the widget shows on the page now. */
const shown = (page: Page) =>
  page.evaluate(() => ({
    panels: document.querySelectorAll('[data-referral-widget]').length,
    readyPanels: [...document.querySelectorAll('[data-referral-widget]')].filter((host) =>
      host.shadowRoot?.querySelector('[data-part="root"][data-state="ready"]'),
    ).length,
    banners: [...document.querySelectorAll('[data-referral-banner]')].filter((host) =>
      host.shadowRoot?.querySelector('[data-part="banner"]'),
    ).length,
  }))

const widgetLines = (log: { console: string[] }) =>
  log.console.filter((line) => line.includes('[referral]'))

it('a quiet page, then a panel page swapped in: the panel is mounted, the tag runs once', async () => {
  const home = sitePage('/')
  sitePage('/account', { panel: true })
  const { page, log } = await h.open(await h.newContext())
  await page.goto(home)
  await waitForApi(page)
  await page.waitForLoadState('networkidle')
  expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])

  await visitWithoutReload(page, '/account')
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="link"]').waitFor()
  expect(await shown(page)).toEqual({ panels: 1, readyPanels: 1, banners: 0 })
  // The tag of the new body ran again, quietly: the widget went on as it was.
  expect(widgetLines(log)).toEqual([])
  expect(log.errors).toEqual([])
})

it('a panel on both bodies comes back on the new one; a body without one lets it go', async () => {
  const account = sitePage('/account', { panel: true })
  sitePage('/settings', { panel: true, title: 'Settings' })
  sitePage('/help', { title: 'Help' })
  const { page, log } = await h.open(await h.newContext())
  await page.goto(account)
  await page.locator(READY_ROOT).waitFor()

  await visitWithoutReload(page, '/settings')
  await expect.poll(() => shown(page), FAST).toEqual({ panels: 1, readyPanels: 1, banners: 0 })
  expect(await page.locator('h1').textContent()).toBe('Settings')

  await visitWithoutReload(page, '/help')
  expect(await shown(page)).toEqual({ panels: 0, readyPanels: 0, banners: 0 })
  await visitWithoutReload(page, '/account')
  await expect.poll(() => shown(page), FAST).toEqual({ panels: 1, readyPanels: 1, banners: 0 })
  // One UI file for all of it, and the link asked for once.
  const paths = h.service.requests.map((request) => request.path)
  expect(paths.filter((path) => path === '/referral-widget-ui.js')).toHaveLength(1)
  expect(widgetLines(log)).toEqual([])
})

it('an arrival with a banner, then a panel page: the banner file gives way to the UI file', async () => {
  const code = await h.linkCode('bob')
  const landing = sitePage('/landing', { banner: true })
  sitePage('/account', { panel: true, banner: true })
  const { page, log } = await h.open(await h.newContext())
  await page.goto(`${landing}?ref=${code}`)
  await page.locator('[data-part="banner"]').waitFor()
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })

  await visitWithoutReload(page, '/account')
  await expect.poll(() => shown(page), FAST).toEqual({ panels: 1, readyPanels: 1, banners: 1 })
  // Each file once (the tag's own again, as the new body runs it), fetched at once where they can be.
  const scripts = h.service.requests.map((request) => request.path).filter((p) => p.endsWith('.js'))
  expect(scripts.sort()).toEqual([
    '/referral-widget-banner.js',
    '/referral-widget-tracking-delivery.js',
    '/referral-widget-ui.js',
    '/referral-widget.js',
    '/referral-widget.js',
  ])
  expect(widgetLines(log)).toEqual([])
})

it('a sign-up the swapped-in page tracks counts once', async () => {
  const code = await h.linkCode('bob')
  const landing = sitePage('/landing')
  sitePage('/welcome', {
    after: "<script>Referral('track', 'signup', { userId: 'carol' })</script>",
  })
  const { page } = await h.open(await h.newContext())
  await page.goto(`${landing}?ref=${code}`)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })

  await visitWithoutReload(page, '/welcome')
  await callReferral(page, 'flush')
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})
