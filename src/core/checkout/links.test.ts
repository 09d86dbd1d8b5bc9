// @vitest-environment happy-dom
// Checkout links carrying the held referral (WIDGET.md section 13): Stripe Payment Links and
// Lemon Squeezy checkout links as the visitor follows them, Stripe's pricing table and buy button
// by their attribute, those added later too; never a value the site set, never another link.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { click, hrefDuring, link } from '../../../test/support/outbound-page.ts'
import { globalTimers } from '../../shared/timers.ts'
import { browserHost } from '../host.ts'
import { checkoutLinks, decorateCheckout } from './links.ts'

const REFERENCE = 'r1-AbC123xy-v_Q2r8kLm0Zt5XwY7pHn3b-0a1b2c3d'
let reference: string | null = REFERENCE
const started: Array<{ stop(): void }> = []
const start = () => {
  const links = checkoutLinks({
    reference: () => reference,
    host: browserHost,
    timers: globalTimers,
  })
  started.push(links)
  return links
}

beforeEach(() => {
  vi.useFakeTimers()
  reference = REFERENCE
})
afterEach(() => {
  for (const links of started.splice(0)) links.stop()
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('decorateCheckout', () => {
  it('gives a Stripe Payment Link client_reference_id and a Lemon Squeezy link checkout[custom][referral]', () => {
    expect(decorateCheckout('https://buy.stripe.com/test_4gw5l1', REFERENCE)).toBe(
      `https://buy.stripe.com/test_4gw5l1?client_reference_id=${REFERENCE}`,
    )
    const lemon = decorateCheckout(
      'https://acme.lemonsqueezy.com/checkout/buy/8e1c?embed=1#top',
      REFERENCE,
    )
    expect(new URL(lemon).searchParams.get('checkout[custom][referral]')).toBe(REFERENCE)
    expect(new URL(lemon).searchParams.get('embed')).toBe('1')
    expect(new URL(lemon).hash).toBe('#top')
  })

  it("keeps the site's own value, and leaves every other link, and any link without a referral, alone", () => {
    const own = 'https://buy.stripe.com/x?client_reference_id=site_order_7'
    expect(decorateCheckout(own, REFERENCE)).toBe(own)
    const ownLemon = 'https://a.lemonsqueezy.com/checkout/buy/1?checkout[custom][referral]=mine'
    expect(decorateCheckout(ownLemon, REFERENCE)).toBe(ownLemon)
    for (const other of [
      'https://stripe.com/pricing',
      'http://buy.stripe.com/insecure',
      'https://buy.stripe.com.evil.test/x',
      'https://acme.lemonsqueezy.com/billing',
      'https://shop.test/checkout/buy/1',
      'not a url',
    ])
      expect(decorateCheckout(other, REFERENCE)).toBe(other)
    expect(decorateCheckout('https://buy.stripe.com/x', null)).toBe('https://buy.stripe.com/x')
  })
})

describe('checkoutLinks in a page', () => {
  it('decorates a Payment Link as it is followed, added after the start too, and gives its address back', async () => {
    start()
    const a = link('https://buy.stripe.com/test_later')
    expect(hrefDuring(a, click())).toBe(
      `https://buy.stripe.com/test_later?client_reference_id=${REFERENCE}`,
    )
    await vi.advanceTimersByTimeAsync(0)
    expect(a.getAttribute('href')).toBe('https://buy.stripe.com/test_later')
    const other = link('https://shop.test/about')
    expect(hrefDuring(other, click())).toBe('https://shop.test/about')
  })

  it('carries nothing once the referral is gone (forgotten)', () => {
    start()
    reference = null
    const a = link('https://buy.stripe.com/test_gone')
    expect(hrefDuring(a, click())).toBe('https://buy.stripe.com/test_gone')
  })

  it("gives Stripe's pricing table and buy button the reference, those added later too, never over the site's", async () => {
    const table = document.createElement('stripe-pricing-table')
    const own = document.createElement('stripe-buy-button')
    own.setAttribute('client-reference-id', 'site_value')
    document.body.append(table, own)
    const links = start()
    expect(table.getAttribute('client-reference-id')).toBe(REFERENCE)
    expect(own.getAttribute('client-reference-id')).toBe('site_value')

    const wrapper = document.createElement('section')
    const later = document.createElement('stripe-buy-button')
    wrapper.append(later)
    document.body.append(wrapper)
    await vi.waitFor(() => expect(later.getAttribute('client-reference-id')).toBe(REFERENCE))

    links.stop()
    expect(table.hasAttribute('client-reference-id')).toBe(false)
    expect(own.getAttribute('client-reference-id')).toBe('site_value')
  })
})
