// The tracker's side of checkouts: `checkoutReference()` for checkouts the site opens itself, and,
// where the `checkout` option is set and a referral is held, the module that carries it on the
// page's checkout links (links.ts), brought then and not before (the script tag loads it as a
// file of its own). A referral captured later on the page, or given consent later, brings it
// then; another referral replaces it, and one forgotten stops it.
import { makeCheckoutReference } from '../../api/checkout-reference.ts'
import type { Timers } from '../../shared/timers.ts'
import type { createEmitter } from '../emitter.ts'
import type { Host } from '../host.ts'
import type { Attribution } from '../stores.ts'
import type { CoreEvents } from '../types.ts'
import type { CheckoutOptions, checkoutLinks } from './links.ts'

export interface CheckoutStart extends Pick<CheckoutOptions, 'api' | 'campaignId'> {
  /** The referral that may travel now: null without one, before consent, under GPC. */
  held: () => Attribution | null
  /** The links module where the `checkout` option is set; without it, links stay as they are. */
  links: (() => Promise<typeof checkoutLinks | undefined>) | undefined
  events: Pick<ReturnType<typeof createEmitter<CoreEvents>>, 'on'>
  host: Pick<Host, 'listen'>
  timers: Timers
}

/* @__NO_SIDE_EFFECTS__ */
export function startCheckout(options: CheckoutStart) {
  const { held, links, events } = options
  /** Null without a referral, and where Web Crypto is missing or broken: never a rejection. */
  const reference = async () => {
    const referral = held()
    try {
      return referral && (await makeCheckoutReference(referral.code, referral.visitorId))
    } catch {
      return null
    }
  }
  /** What carries the reference held when it started, and that reference. */
  let carrying: { stop(): void; reference: string } | undefined
  let stopped = false
  const refresh = async () => {
    const current = await reference()
    // Another referral (a later link), or none (forgotten): what carried the old one stops.
    if (carrying && carrying.reference !== current) {
      carrying.stop()
      carrying = undefined
    }
    if (!current || carrying || !links) return
    const module = await links().catch(() => undefined)
    try {
      if (module && !carrying && !stopped)
        carrying = { ...module({ ...options, reference: () => current }), reference: current }
    } catch {} // a page that broke what it needs: its checkouts carry nothing, nothing thrown
  }
  const unlisten = links
    ? (['captured', 'consent', 'forgotten'] as const).map((name) =>
        events.on(name, () => void refresh()),
      )
    : []
  void refresh()
  return {
    reference,
    stop() {
      stopped = true
      for (const stop of unlisten) stop()
      carrying?.stop()
    },
  }
}
