// What a hostile or careless page cannot make the widget do: use a secret key, or run markup from
// the service or the address bar. Host CSS: host-styles.e2e.ts; a strict CSP and Subresource
// Integrity: csp-integrity.e2e.ts.
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import {
  callReferral,
  queueSize,
  READY_ROOT,
  storageEntries,
  waitForApi,
} from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const refusedKeys = [
  { name: 'a secret key', key: 'sk_test_acme', message: /secret key.*never reach a browser/i },
  { name: 'a missing key', key: null, message: /data-key/ },
  { name: 'a malformed key', key: 'pk_test_no!', message: /data-key/ },
] as const

it.each(refusedKeys)(
  'refuses $name: one console.error, no request, no UI',
  async ({ key, message }) => {
    const url = h.host.page('/', { html: widgetPage(h.service, { key, banner: true }) })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(url) // the async script has run once the load event has fired
    await page.waitForLoadState('networkidle')

    const errors = log.console.filter((line) => line.startsWith('error:'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(message)
    if (key !== null) expect(errors[0], 'the key is not echoed').not.toContain(key)
    // The service's origin saw the loader, the tracking part and the checks file that say what is
    // wrong, and nothing else: no API call, no delivery, no UI file.
    expect(h.service.requests.map((request) => request.path)).toEqual([
      '/referral-widget.js',
      '/referral-widget-tracking.js',
      '/referral-widget-checks.js',
    ])
    expect(h.service.service.requestLog.since(0)).toEqual([])
    // No UI, nothing stored.
    const shadows = await page.evaluate(() =>
      [...document.querySelectorAll('[data-referral-widget],[data-referral-banner]')].map(
        (element) => element.shadowRoot !== null,
      ),
    )
    expect(shadows).toEqual([false, false])
    expect(Object.keys(await storageEntries(page))).toEqual([])
  },
)

it('renders a hostile campaign name as text: no element, no script, no dialog', async () => {
  const hostile = '<img src=x onerror=alert(1)>'
  const { status, body } = await h.admin('POST', '/v1/campaigns', {
    name: hostile,
    description: '<script>alert(2)</script>',
    rewardTrigger: 'signup',
    referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
    referredReward: { type: 'credit', amount: 10, currency: 'USD' },
  })
  expect(status).toBe(201)
  const campaignId = (body as { id: string }).id
  const code = await h.linkCode('alice', campaignId)
  // A friend of alice's, in their own browser: their panel, and her link's banner.
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      banner: true,
      attributes: { campaign: campaignId, 'user-id': 'dave' },
    }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="banner"]').waitFor()
  await page.locator('[data-part="link"]').waitFor()

  // The name is there, as text (an accessible name), in the panel and the banner.
  expect(await page.locator(READY_ROOT).getAttribute('aria-label')).toBe(hostile)
  expect(await page.locator('[data-part="banner"]').getAttribute('aria-label')).toBe(hostile)
  // No element came of it, in the page or in any shadow root, and nothing ran.
  expect(await page.locator('img').count()).toBe(0)
  expect(await page.locator('script:not([src])').count()).toBe(0)
  expect(log.dialogs).toEqual([])
  expect(h.host.requests.map((request) => request.path)).not.toContain('/x')
})

it('ignores a hostile ?ref=: not stored, not sent, removed from the address bar', async () => {
  const url = h.host.page('/landing', {
    html: widgetPage(h.service, { banner: true, attributes: { 'user-id': 'alice' } }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  const hostileRef = '%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E'
  await page.goto(`${url}?ref=${hostileRef}&utm_source=mail`)
  await page.locator(READY_ROOT).waitFor()
  await waitForApi(page)

  await expect.poll(() => page.url(), FAST).toBe(`${url}?utm_source=mail`)
  expect(await callReferral(page, 'getAttribution')).toBeNull()
  expect(await queueSize(page)).toBe(0)
  await page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  expect(h.eventRequests()).toEqual([])
  expect(log.requests.some((request) => request.includes('/v1/events'))).toBe(false)
  const toService = log.requests.filter((request) => request.startsWith(h.service.url))
  expect(toService.some((request) => /script|alert|%3C|%22/i.test(request))).toBe(false)

  const entries = await storageEntries(page)
  expect(JSON.stringify(entries)).not.toMatch(/script|alert|%3C|%22|</i)
  expect(Object.keys(entries).filter((key) => /:(attribution|clicks|q:.*)$/.test(key))).toEqual([])
  expect(await page.locator('[data-part="banner"]').count()).toBe(0)
  expect(await page.locator('script:not([src])').count()).toBe(0)
  expect(log.dialogs).toEqual([])
})
