// The visitor's hand-off between the demo's two "domains": the shop's landing page links to the
// app's sign-up page under the other host name, and the app's page says what its widget made of
// the ref_handoff it arrived with.
import type { HandoffArrival } from '../../src/api/handoff.ts'

export const SHOP_PATH = '/demo/visitor.html'
export const APP_PATH = '/demo/app.html'

/** The widget settings the shop's page passes on to the app's. */
const WIDGET_PARAMS = ['key', 'campaign', 'locale', 'theme', 'consent'] as const

/** The app's sign-up page on `appOrigin`, with the shop page's widget settings. */
export function appPageUrl(appOrigin: string, shopParams: URLSearchParams): string {
  const url = new URL(APP_PATH, appOrigin)
  for (const name of WIDGET_PARAMS) {
    const value = shopParams.get(name)
    if (value) url.searchParams.set(name, value)
  }
  return url.href
}

/** The referral the app's widget holds once started; null before it has started. */
export interface Held {
  code: string | null
  visitorId: string | null
}

/**
 * What the app's widget made of its arrival: `arrival` is the page's ref_handoff as the widget
 * reads it (handoffArrival, read before the widget removes it from the address bar).
 */
export function describeArrival(arrival: HandoffArrival | null, held: Held | null): string {
  if (held === null) return 'Waiting for the widget…'
  if (arrival === null) {
    return held.code
      ? `No ref_handoff in the address: the referral ${held.code} was held here already.`
      : 'No ref_handoff in the address and no referral held: follow the shop’s link to arrive with one.'
  }
  if (arrival.visitorId === undefined) {
    return `ref_handoff older than 30 minutes or unreadable past its code: an ordinary arrival by ${arrival.code} (one click).`
  }
  if (held.code === arrival.code && held.visitorId === arrival.visitorId) {
    return `Hand-off adopted: code ${held.code} for visitor ${held.visitorId}, as on the shop; no click sent from here.`
  }
  return `A referral captured later was kept here: code ${held.code ?? 'none'} for visitor ${held.visitorId ?? 'none'} (the hand-off named ${arrival.code}).`
}
