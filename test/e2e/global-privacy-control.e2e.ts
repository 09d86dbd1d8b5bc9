// Global Privacy Control: with data-honor-gpc, a visit through a referral link from a browser
// sending the signal is not recorded; without it, the same visit is recorded as usual.
import { describe, expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

describe('Global Privacy Control', () => {
  const withSignal = async () => {
    const context = await h.newContext()
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
    })
    return context
  }

  it('with data-honor-gpc, a visitor sending the signal through a link is not recorded', async () => {
    const code = await h.linkCode('alice')
    const url = h.host.page('/landing', {
      html: widgetPage(h.service, { banner: true, attributes: { 'honor-gpc': 'true' } }),
    })
    const { page, log } = await h.open(await withSignal())
    await page.goto(`${url}?ref=${code}&utm_source=mail`)
    await page.locator(READY_ROOT).waitFor()
    await waitForApi(page)

    await expect.poll(() => page.url(), FAST).toBe(`${url}?utm_source=mail`)
    expect(await callReferral(page, 'getAttribution')).toBeNull()
    await page.evaluate(() =>
      (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
    )
    expect(h.eventRequests()).toEqual([])
    expect((await h.stats()).totalClicks).toBe(0)
    expect(await page.locator('[data-part="banner"]').count()).toBe(0)
    expect(log.console).toContain(
      'info: [referral] Global Privacy Control is on: this referral visit is not recorded.',
    )
  })

  it('without data-honor-gpc, the same visit is recorded as usual', async () => {
    const code = await h.linkCode('alice')
    const url = h.host.page('/landing', { html: widgetPage(h.service, { banner: true }) })
    const { page } = await h.open(await withSignal())
    await page.goto(`${url}?ref=${code}`)
    await page.locator('[data-part="banner"]').waitFor()
    await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)
  })
})
