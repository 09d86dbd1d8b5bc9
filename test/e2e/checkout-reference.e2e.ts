// Referral.checkoutReference() from the script tag (WIDGET.md section 13): the string a checkout
// the site opens itself carries (Paddle.js customData, a Stripe Checkout Session), read back by
// the server entry as the visitor's referral. Asked once the loader runs but before its tracking
// part does (the promise settles when the part runs), on the next page of the visit, and on a
// page with no referral, where it is null.
import { expect, it } from 'vitest'
import { readCheckoutReference } from '../../src/api/checkout-reference.ts'
import { useHarness } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { holdFiles } from './support/kept-calls.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const shopPage = (path: string) =>
  h.host.page(path, { html: widgetPage(h.service, { panel: false }) })

it('gives the referral as a checkout reference the server reads back, asked before the tracking part runs and on the next page', async () => {
  const code = await h.linkCode('alice')
  const landing = shopPage('/landing')
  const checkout = shopPage('/checkout')
  const context = await h.newContext()
  const tracking = await holdFiles(context)
  const { page, log } = await h.open(context)
  // The held part holds the page's load event back.
  await page.goto(`${landing}?ref=${code}`, { waitUntil: 'domcontentloaded' })
  await waitForApi(page)
  // The loader answers with a promise at once; it settles once the held part has run.
  const asked = await page.evaluate(() => {
    const call = (window as unknown as { Referral: (name: string) => unknown }).Referral
    const answer = call('checkoutReference')
    ;(window as unknown as { early: unknown }).early = answer
    return answer instanceof Promise
  })
  expect(asked).toBe(true)
  await tracking.release()
  const early = await page.evaluate(() => (window as unknown as { early: Promise<string> }).early)
  expect(await readCheckoutReference(early)).toMatchObject({ code })

  await page.goto(checkout)
  await waitForApi(page)
  const later = await callReferral(page, 'checkoutReference')
  expect(later).toBe(early)
  expect(log.errors).toEqual([])
})

it('is null on a visit through no link, and asks the service nothing', async () => {
  const { page, log } = await h.open(await h.newContext())
  await page.goto(shopPage('/plain'))
  await waitForApi(page)
  expect(await callReferral(page, 'checkoutReference')).toBeNull()
  expect(h.eventRequests()).toEqual([])
  expect(log.errors).toEqual([])
})
