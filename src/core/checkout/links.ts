// Checkouts carry the referral with no code of the site's (option `checkout`, WIDGET.md section
// 13): while a referral is held, Stripe Payment Links (`https://buy.stripe.com/…`) get
// `client_reference_id`, Lemon Squeezy checkout links (`https://<store>.lemonsqueezy.com/checkout/
// buy/…`) `checkout[custom][referral]`, as the visitor follows them (followed-links.ts), and
// Stripe's `<stripe-pricing-table>` and `<stripe-buy-button>` a `client-reference-id` attribute,
// those added later too. A value the site set is never overwritten; other links are untouched.
// The script tag loads this module beside its tracking part only where data-checkout is set and
// a referral is held. Everything here runs inside the host's page: it never throws there.
import { adds, PAGE_CHANGES } from '../../shared/page-changes.ts'
import type { Timers } from '../../shared/timers.ts'
import { followLinks, withParam } from '../followed-links.ts'
import type { Host } from '../host.ts'

export interface CheckoutOptions {
  /** The held referral's checkout reference now: null without one (then nothing is carried). */
  reference: () => string | null
  host: Pick<Host, 'listen'>
  timers: Timers
}

/** Stripe's embeddable checkouts: they read the reference from this attribute. */
const STRIPE_ELEMENTS = 'stripe-pricing-table,stripe-buy-button'
const ELEMENT_ATTRIBUTE = 'client-reference-id'
const CARRIED = Symbol.for('referral-widget.checkout')

/** The parameter a checkout link carries the reference in, or undefined for any other link. */
export function referenceParam(url: URL): string | undefined {
  if (url.protocol !== 'https:') return
  if (url.hostname === 'buy.stripe.com') return 'client_reference_id'
  if (url.hostname.endsWith('.lemonsqueezy.com') && url.pathname.startsWith('/checkout/buy/'))
    return 'checkout[custom][referral]'
}

/** `address` carrying `reference` where it is a checkout link without a value of its own. */
export function decorateCheckout(address: string, reference: string | null): string {
  try {
    const url = new URL(address)
    const param = referenceParam(url)
    if (!reference || !param || url.searchParams.has(param)) return address
    return withParam(url.href, encodeURIComponent(param), reference)
  } catch {
    return address // not a URL the page's own URL class reads, or a page that replaced it
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function checkoutLinks({ reference, host, timers }: CheckoutOptions): { stop(): void } {
  const unfollow = followLinks({
    decorate: (address) => decorateCheckout(address, reference()),
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
