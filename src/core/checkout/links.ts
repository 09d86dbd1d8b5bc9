// Checkouts carry the referral with no code of the site's (option `checkout`, WIDGET.md section
// 13): while a referral is held, Stripe Payment Links (`https://buy.stripe.com/…`) get
// `client_reference_id`, Lemon Squeezy checkout links (`https://<store>.lemonsqueezy.com/checkout/
// buy/…`) `checkout[custom][referral]`, as the visitor follows them (followed-links.ts), and
// Stripe's `<stripe-pricing-table>` and `<stripe-buy-button>` a `client-reference-id` attribute,
// those added later too. The links also carry the friend's promotion code, where the page's
// campaign has one (extension): `prefilled_promo_code`, `checkout[discount_code]`. A value the
// site set is never overwritten; other links are untouched. The script tag loads this module
// beside its tracking part only where data-checkout is set and a referral is held. Everything
// here runs inside the host's page: it never throws there.
import type { ApiClient } from '../../api/client.ts'
import { askCampaign } from '../../api/referrer-calls.ts'
import { adds, PAGE_CHANGES } from '../../shared/page-changes.ts'
import type { Timers } from '../../shared/timers.ts'
import { followLinks, withParam } from '../followed-links.ts'
import type { Host } from '../host.ts'

export interface CheckoutOptions {
  /** The held referral's checkout reference now: null without one (then nothing is carried). */
  reference: () => string | null
  host: Pick<Host, 'listen'>
  timers: Timers
  /** Where the page's campaign is asked for, for its promotion code. */
  api: Pick<ApiClient, 'request'>
  /** The page's campaign (`data-campaign`); the newest active one without it. */
  campaignId: string | undefined
}

/** What a checkout link carries: the reference, and the friend's promotion code where there is one. */
export interface Carried {
  reference: string | null
  promotionCode?: string | undefined
}

/** Stripe's embeddable checkouts: they read the reference from this attribute. */
const STRIPE_ELEMENTS = 'stripe-pricing-table,stripe-buy-button'
const ELEMENT_ATTRIBUTE = 'client-reference-id'
const CARRIED = Symbol.for('referral-widget.checkout')

/** The parameters a checkout link carries the reference and the promotion code in. */
export function checkoutParams(url: URL): [reference: string, promotionCode: string] | undefined {
  if (url.protocol !== 'https:') return
  if (url.hostname === 'buy.stripe.com') return ['client_reference_id', 'prefilled_promo_code']
  if (url.hostname.endsWith('.lemonsqueezy.com') && url.pathname.startsWith('/checkout/buy/'))
    return ['checkout[custom][referral]', 'checkout[discount_code]']
}

/**
 * `address` carrying the reference and the promotion code, where it is a checkout link and while
 * a referral is held; each parameter the site already set keeps the site's value.
 */
export function decorateCheckout(address: string, { reference, promotionCode }: Carried): string {
  try {
    const url = new URL(address)
    const params = checkoutParams(url)
    if (!reference || !params) return address
    const [referenceParam, codeParam] = params
    const pairs: Array<[string, string | undefined]> = [
      [referenceParam, reference],
      [codeParam, promotionCode],
    ]
    const missing = pairs.filter(
      (pair): pair is [string, string] => !!pair[1] && !url.searchParams.has(pair[0]),
    )
    if (!missing.length) return address
    return missing.reduce(
      (href, [param, value]) => withParam(href, encodeURIComponent(param), value),
      url.href,
    )
  } catch {
    return address // not a URL the page's own URL class reads, or a page that replaced it
  }
}

/**
 * The friend's promotion code of the page's campaign, the one its banner shows: none from a
 * service without the extension, for a campaign no longer active, or when the service did not
 * answer (links then carry the reference alone).
 */
async function promotionCodeOf({ api, campaignId }: CheckoutOptions) {
  try {
    const campaign = await askCampaign(api, campaignId)
    return campaign?.status === 'active' ? campaign.referredReward.promotionCode : undefined
  } catch {}
}

/* @__NO_SIDE_EFFECTS__ */
export function checkoutLinks(options: CheckoutOptions): { stop(): void } {
  const { reference, host, timers } = options
  let promotionCode: string | undefined
  void promotionCodeOf(options).then((code) => {
    promotionCode = code
  })
  const unfollow = followLinks({
    decorate: (address) => decorateCheckout(address, { reference: reference(), promotionCode }),
    mark: CARRIED,
    host,
    timers,
  })
  /** The Stripe elements given the reference here, and the value each was given. */
  const given = new Map<Element, string>()
  const give = (element: Element) => {
    const value = reference()
    if (value && !element.hasAttribute(ELEMENT_ATTRIBUTE)) {
      element.setAttribute(ELEMENT_ATTRIBUTE, value)
      given.set(element, value)
    }
  }
  const look = () => {
    try {
      for (const element of document.querySelectorAll(STRIPE_ELEMENTS)) give(element)
    } catch {}
  }
  // A Stripe element arriving is looked for by the nodes each batch added (page-changes.ts); only
  // then is the document asked for them. No document (the headless core on a server): links and
  // elements alike are the page's business there.
  let watch: MutationObserver | undefined
  try {
    look()
    watch = new MutationObserver((batch) => adds(batch, STRIPE_ELEMENTS) && look())
    watch.observe(document, PAGE_CHANGES)
  } catch {}
  return {
    /** Stops carrying: each element given the reference loses it, unless the page changed it. */
    stop() {
      unfollow()
      watch?.disconnect()
      for (const [element, value] of given)
        try {
          if (element.getAttribute(ELEMENT_ATTRIBUTE) === value)
            element.removeAttribute(ELEMENT_ATTRIBUTE)
        } catch {}
      given.clear()
    },
  }
}
