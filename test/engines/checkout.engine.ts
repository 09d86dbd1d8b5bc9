// Checkout links carrying the referral in each engine (data-checkout, WIDGET.md section 13): a
// Stripe Payment Link the friend follows carries the checkout reference, and the campaign's
// promotion code once the service gave it (the seeded campaign's FRIEND10), while the click is
// dispatched (seen by the page's own listener, which keeps the test from leaving for Stripe),
// the link has its own address back after, and a Stripe buy button added later is given the
// reference as its attribute. The server reads the reference back as the friend's referral.
import { expect, it } from 'vitest'
import { readCheckoutReference } from '../../src/api/checkout-reference.ts'
import { useEngine } from './support/harness.ts'
import { apiLoaded, call, enginePage } from './support/in-page.ts'

const h = useEngine()

it('a Payment Link followed carries the reference the server reads back and the promotion code, and a buy button added later the reference', async () => {
  const code = await h.linkCode('alice')
  const pricing = h.host.page('/pricing', {
    html: enginePage(h.service, {
      panel: false,
      attributes: { checkout: '' },
      after: `<a id="buy" href="https://buy.stripe.com/test_plan_pro">Buy Pro</a>
<script>document.getElementById('buy').addEventListener('click', function (event) {
  window.followedTo = this.getAttribute('href'); event.preventDefault()
})</script>`,
    }),
  })
  const tab = await h.visit(`${pricing}?ref=${code}`)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  const held = () => call(tab, 'getAttribution') as Promise<{ visitorId: string } | null>
  await expect.poll(held).toMatchObject({ code })
  const visitorId = (await held())?.visitorId
  // The checkout file comes once the referral is held; the reference is the one the API gives.
  const reference = (await call(tab, 'checkoutReference')) as string
  expect(await readCheckoutReference(reference)).toEqual({ code, visitorId })
  const followed = () =>
    tab.evaluate(() => {
      ;(window as unknown as { followedTo?: string | undefined }).followedTo = undefined
      document.getElementById('buy')?.click()
      return {
        to: (window as unknown as { followedTo?: string | undefined }).followedTo,
        after: document.getElementById('buy')?.getAttribute('href'),
      }
    })
  await expect
    .poll(() => followed().then((seen) => seen.to))
    .toBe(
      `https://buy.stripe.com/test_plan_pro?client_reference_id=${reference}&prefilled_promo_code=FRIEND10`,
    )
  await expect
    .poll(() => tab.evaluate(() => document.getElementById('buy')?.getAttribute('href')))
    .toBe('https://buy.stripe.com/test_plan_pro')

  await tab.evaluate(() => {
    const section = document.createElement('section')
    section.append(document.createElement('stripe-buy-button'))
    document.body.append(section)
  })
  await expect
    .poll(() =>
      tab.evaluate(() =>
        document.querySelector('stripe-buy-button')?.getAttribute('client-reference-id'),
      ),
    )
    .toBe(reference)
})
