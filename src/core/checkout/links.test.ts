// @vitest-environment happy-dom
// Checkout links carrying the held referral (WIDGET.md section 13): Stripe Payment Links and
// Lemon Squeezy checkout links as the visitor follows them, Stripe's pricing table and buy button
// by their attribute, those added later too; never a value the site set, never another link. The
// links carry the friend's promotion code too, where the page's campaign has one (extension).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CAMPAIGN } from '../../../test/support/api-client.ts'
import { click, hrefDuring, link } from '../../../test/support/outbound-page.ts'
import { ApiError } from '../../shared/errors.ts'
import { globalTimers } from '../../shared/timers.ts'
import { browserHost } from '../host.ts'
import { checkoutLinks, decorateCheckout } from './links.ts'

const REFERENCE = 'r1-AbC123xy-v_Q2r8kLm0Zt5XwY7pHn3b-0a1b2c3d'
let reference: string | null = REFERENCE
/** The page's campaign as the service gives it: by default one without a promotion code. */
let campaign: () => Promise<unknown> = async () => CAMPAIGN
const request = vi.fn((_method: string, _path: string) => campaign())
const started: Array<{ stop(): void }> = []
/** `campaignId` null: the page names no campaign. */
const start = (campaignId: string | null = CAMPAIGN.id) => {
  const links = checkoutLinks({
    reference: () => reference,
    host: browserHost,
    timers: globalTimers,
    api: { request: request as never },
    campaignId: campaignId ?? undefined,
  })
  started.push(links)
  return links
}
const withCode = (promotionCode: unknown) => ({
  ...CAMPAIGN,
  referredReward: { ...CAMPAIGN.referredReward, promotionCode },
})

beforeEach(() => {
  vi.useFakeTimers()
  reference = REFERENCE
  campaign = async () => CAMPAIGN
  request.mockClear()
})
afterEach(() => {
  for (const links of started.splice(0)) links.stop()
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('decorateCheckout', () => {
  it('gives a Stripe Payment Link client_reference_id and a Lemon Squeezy link checkout[custom][referral]', () => {
    expect(decorateCheckout('https://buy.stripe.com/test_4gw5l1', { reference: REFERENCE })).toBe(
      `https://buy.stripe.com/test_4gw5l1?client_reference_id=${REFERENCE}`,
    )
    const lemon = decorateCheckout('https://acme.lemonsqueezy.com/checkout/buy/8e1c?embed=1#top', {
      reference: REFERENCE,
    })
    expect(new URL(lemon).searchParams.get('checkout[custom][referral]')).toBe(REFERENCE)
    expect(new URL(lemon).searchParams.get('embed')).toBe('1')
    expect(new URL(lemon).hash).toBe('#top')
  })

  it("keeps the site's own value, and leaves every other link, and any link without a referral, alone", () => {
    const own = 'https://buy.stripe.com/x?client_reference_id=site_order_7'
    expect(decorateCheckout(own, { reference: REFERENCE })).toBe(own)
    const ownLemon = 'https://a.lemonsqueezy.com/checkout/buy/1?checkout[custom][referral]=mine'
    expect(decorateCheckout(ownLemon, { reference: REFERENCE })).toBe(ownLemon)
    for (const other of [
      'https://stripe.com/pricing',
      'http://buy.stripe.com/insecure',
      'https://buy.stripe.com.evil.test/x',
      'https://acme.lemonsqueezy.com/billing',
      'https://shop.test/checkout/buy/1',
      'not a url',
    ])
      expect(decorateCheckout(other, { reference: REFERENCE, promotionCode: 'FRIEND10' })).toBe(
        other,
      )
    const none = { reference: null, promotionCode: 'FRIEND10' }
    expect(decorateCheckout('https://buy.stripe.com/x', none)).toBe('https://buy.stripe.com/x')
  })

  it('adds the promotion code as prefilled_promo_code and checkout[discount_code], each only where the site set none', () => {
    const carried = { reference: REFERENCE, promotionCode: 'FRIEND10' }
    const stripe = new URL(decorateCheckout('https://buy.stripe.com/test_4gw5l1#x', carried))
    expect(stripe.searchParams.get('client_reference_id')).toBe(REFERENCE)
    expect(stripe.searchParams.get('prefilled_promo_code')).toBe('FRIEND10')
    expect(stripe.hash).toBe('#x')
    const lemon = new URL(decorateCheckout('https://a.lemonsqueezy.com/checkout/buy/1', carried))
    expect(lemon.searchParams.get('checkout[custom][referral]')).toBe(REFERENCE)
    expect(lemon.searchParams.get('checkout[discount_code]')).toBe('FRIEND10')

    const ownCode = new URL(
      decorateCheckout('https://buy.stripe.com/x?prefilled_promo_code=SITE5', carried),
    )
    expect(ownCode.searchParams.getAll('prefilled_promo_code')).toEqual(['SITE5'])
    expect(ownCode.searchParams.get('client_reference_id')).toBe(REFERENCE)
    const ownReference = 'https://a.lemonsqueezy.com/checkout/buy/1?checkout[custom][referral]=mine'
    const kept = new URL(decorateCheckout(ownReference, carried))
    expect(kept.searchParams.getAll('checkout[custom][referral]')).toEqual(['mine'])
    expect(kept.searchParams.get('checkout[discount_code]')).toBe('FRIEND10')
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

/** The service asked once and its answer read. */
const answered = async () => {
  await vi.waitFor(() => expect(request).toHaveBeenCalled())
  await vi.advanceTimersByTimeAsync(0)
}
/** The address a link to `address` leaves for when the visitor follows it. */
const followed = (address: string) => new URL(hrefDuring(link(address), click()) ?? '')

describe("the page's campaign's promotion code", () => {
  it('is carried once the campaign named by the page answers with one', async () => {
    campaign = async () => withCode('FRIEND10')
    start()
    await answered()
    expect(request.mock.calls.map((call) => call[1])).toEqual([`/v1/campaigns/${CAMPAIGN.id}`])
    const href = followed('https://buy.stripe.com/test_code')
    expect(href.searchParams.get('prefilled_promo_code')).toBe('FRIEND10')
    expect(href.searchParams.get('client_reference_id')).toBe(REFERENCE)
  })

  it("is the newest active campaign's where the page names none", async () => {
    campaign = async () => ({ data: [withCode('NEWEST5')], total: 1, hasMore: false })
    start(null)
    await answered()
    const href = followed('https://acme.lemonsqueezy.com/checkout/buy/9')
    expect(href.searchParams.get('checkout[discount_code]')).toBe('NEWEST5')
    expect(request.mock.calls.map((call) => call[1])).toEqual([
      '/v1/campaigns?status=active&limit=1',
    ])
  })

  it.each([
    ['a service without the extension', async () => CAMPAIGN],
    ['a code that is not one', async () => withCode('FRIEND 10')],
    ['a paused campaign', async () => ({ ...withCode('FRIEND10'), status: 'paused' })],
    ['no campaign at all', async () => ({ data: [], total: 0, hasMore: false })],
    [
      'a refusal',
      async () =>
        Promise.reject(
          new ApiError({ status: 404, type: 'x', code: 'not_found', message: 'gone' }),
        ),
    ],
    ['an answer that is not a campaign', async () => ({ id: 7 })],
  ])('is not carried from %s, and the reference still is', async (_name, answer) => {
    campaign = answer
    start()
    await answered()
    const href = followed('https://buy.stripe.com/test_plain')
    expect(href.searchParams.get('client_reference_id')).toBe(REFERENCE)
    expect(href.searchParams.has('prefilled_promo_code')).toBe(false)
  })

  it('is not waited for: a link followed before the campaign answers carries the reference', () => {
    campaign = () => new Promise(() => {})
    start()
    const href = followed('https://buy.stripe.com/test_early')
    expect(href.searchParams.get('client_reference_id')).toBe(REFERENCE)
    expect(href.searchParams.has('prefilled_promo_code')).toBe(false)
  })
})
