// A referred friend pays through a Stripe Payment Link and the referral credits itself
// (WIDGET.md section 13, docs/PAYMENTS.md): the page with data-checkout decorates the link the
// friend follows (the URL the browser leaves for carries client_reference_id, and the campaign's
// promotion code as prefilled_promo_code), and the site's
// stripeWebhook, given the signed checkout.session.completed Stripe sends for it, records it at
// the service once, however often Stripe delivers it.
import type { Page } from 'playwright-core'
import Stripe from 'stripe'
import { expect, it } from 'vitest'
import { readCheckoutReference } from '../../src/api/checkout-reference.ts'
import { stripeWebhook } from '../../src/server.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()
const ENDPOINT_SECRET = 'whsec_e2e_endpoint'
const stripe = new Stripe('sk_test_site_own')

/** A pricing page with data-checkout and a Stripe Payment Link. */
const pricingPage = (path: string) =>
  h.host.page(path, {
    html: widgetPage(h.service, {
      panel: false,
      attributes: { checkout: '' },
      after: `<a id="buy" href="https://buy.stripe.com/test_plan_pro">Buy Pro</a>
<a id="probe" href="https://buy.stripe.com/test_probe">Probe</a>
<script>document.getElementById('probe').addEventListener('click', function (event) {
  window.probedTo = this.getAttribute('href'); event.preventDefault()
})</script>`,
    }),
  })

/** Where the probe link (which never leaves) would take the friend now. */
const probe = (page: Page) =>
  page.evaluate(() => {
    document.getElementById('probe')?.click()
    return (window as unknown as { probedTo?: string }).probedTo ?? 'https://none.invalid/'
  })

/**
 * A visitor's browser, with Stripe's checkout page as far as these tests need it: the addresses
 * the browser left for (the one foreign origin of the visit; the widget sends it nothing).
 */
async function visitor() {
  const context = await h.newContext()
  h.allow('https://buy.stripe.com')
  const left: string[] = []
  await context.route('https://buy.stripe.com/**', (route) => {
    left.push(route.request().url())
    return route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title>' })
  })
  return { ...(await h.open(context)), left }
}

it('decorates the Payment Link the friend follows, and the signed event Stripe sends for it credits the referrer once', async () => {
  const code = await h.linkCode('alice')
  const pricing = pricingPage('/pricing')
  const { page, log, left } = await visitor()
  await page.goto(`${pricing}?ref=${code}`)
  await waitForApi(page)
  await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)
  const held = (await callReferral(page, 'getAttribution')) as { visitorId: string }
  // The checkout file comes once the referral is held: the link carries it when followed.
  await expect
    .poll(() => h.service.requests.some((r) => r.path === '/referral-widget-checkout.js'), FAST)
    .toBe(true)
  // The seeded campaign's promotion code comes with the service's answer: until then, the
  // links carry the reference alone.
  await expect
    .poll(async () => new URL(await probe(page)).searchParams.get('prefilled_promo_code'), FAST)
    .toBe('FRIEND10')
  await page.click('#buy')
  await expect.poll(() => left.length, FAST).toBe(1)
  const leftFor = new URL(left[0] ?? '').searchParams
  const reference = leftFor.get('client_reference_id')
  expect(await readCheckoutReference(reference)).toEqual({ code, visitorId: held.visitorId })
  expect(leftFor.get('prefilled_promo_code')).toBe('FRIEND10')
  expect(log.errors).toEqual([])

  // The event Stripe sends once the friend paid, signed as Stripe signs it.
  const handler = stripeWebhook({
    stripe,
    endpointSecret: ENDPOINT_SECRET,
    secretKey: 'sk_test_acme',
    apiBase: h.service.url,
  })
  const payload = JSON.stringify({
    id: 'evt_e2e_paid',
    object: 'event',
    type: 'checkout.session.completed',
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: 'cs_test_e2e',
        object: 'checkout.session',
        client_reference_id: reference,
        metadata: {},
        customer: 'cus_e2eFriend',
        payment_intent: 'pi_e2eOrder',
        amount_total: 4900,
        currency: 'usd',
        payment_status: 'paid',
        mode: 'payment',
      },
    },
  })
  const deliver = async () => {
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: ENDPOINT_SECRET,
    })
    const answer = await handler(
      new Request('https://shop.test/webhooks/stripe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
        body: payload,
      }),
    )
    return `${answer.status} ${((await answer.json()) as { outcome?: string }).outcome}`
  }
  const before = await h.stats()
  expect(await deliver()).toBe('200 recorded')
  // Stripe's own redelivery, ten at once: answered, never credited again.
  const again = await Promise.all(Array.from({ length: 10 }, deliver))
  expect(new Set(again)).toEqual(new Set(['200 duplicate']))
  const after = await h.stats()
  expect(after.totalConversions - before.totalConversions).toBe(1)
  expect(after.totalRewardsIssued - before.totalRewardsIssued).toBe(2)
})

it('a visit through no link downloads no checkout file and leaves the Payment Link as written', async () => {
  const plain = pricingPage('/plain-pricing')
  const { page, left } = await visitor()
  await page.goto(plain)
  await waitForApi(page)
  await page.click('#buy')
  await expect.poll(() => left, FAST).toEqual(['https://buy.stripe.com/test_plan_pro'])
  expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])
})
