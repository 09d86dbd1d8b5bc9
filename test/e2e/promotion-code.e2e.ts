// The friend's reward at checkout (WIDGET.md section 13, CONTRACT.md "Promotion code"): the
// banner of a referred visitor shows the campaign's promotion code (the seeded campaign's
// FRIEND10) with a copy button whose result the status region announces; a campaign without a
// code (a service without the extension looks the same) shows the banner as before, with no code.
import { expect, it } from 'vitest'
import { FAST, SEEDED_CAMPAIGN, useHarness } from './support/harness.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const landing = (path: string) =>
  h.host.page(path, {
    html: widgetPage(h.service, { panel: false, banner: true, attributes: { locale: 'en-US' } }),
  })

it("shows the friend's promotion code in the banner, copies it and announces the copy", async () => {
  const code = await h.linkCode('alice')
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page, log } = await h.open(context)
  await page.goto(`${landing('/welcome')}?ref=${code}`)

  const promotionCode = page.locator('[data-part="promotion-code"]')
  await promotionCode.waitFor()
  expect(await promotionCode.inputValue()).toBe('FRIEND10')
  const status = page.locator('[data-part="banner"] [data-part="status"]')
  expect(await status.getAttribute('role')).toBe('status')
  expect(((await status.textContent()) ?? '').trim()).toBe('')

  await page.locator('[data-part="copy-code"]').click()
  await expect.poll(() => status.textContent(), FAST).toBe('Code copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('FRIEND10')
  expect(log.errors).toEqual([])
})

it('a campaign without a promotion code shows the banner with no code and no copy button', async () => {
  const removed = await h.admin('PATCH', `/v1/campaigns/${SEEDED_CAMPAIGN}`, {
    referredReward: { promotionCode: null },
  })
  expect(removed.status).toBe(200)
  const code = await h.linkCode('alice')
  const { page, log } = await h.open(await h.newContext())
  await page.goto(`${landing('/welcome-plain')}?ref=${code}`)

  const banner = page.locator('[data-part="banner"]')
  await banner.waitFor()
  expect(await banner.textContent()).toContain('A friend invited you')
  expect(await page.locator('[data-part="promotion-code"]').count()).toBe(0)
  expect(await page.locator('[data-part="copy-code"]').count()).toBe(0)
  expect(log.errors).toEqual([])
})
