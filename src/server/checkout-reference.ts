// The checkout reference from the site's server (WIDGET.md section 13): for a checkout the server
// opens itself (a Stripe Checkout Session's client_reference_id, say), the same string the
// widget's Referral.checkoutReference() gives in the page.

import { makeCheckoutReference } from '../api/checkout-reference.ts'
import { type Attribution, parseAttribution } from './read-attribution.ts'

/**
 * The checkout reference (`r1-<code>-<visitorId>-<check>`) of an attribution as readAttribution()
 * or parseAttribution() give it; null for null, or anything that is not such an attribution.
 * Never rejects.
 */
export async function checkoutReference(
  attribution: Attribution | null | undefined,
): Promise<string | null> {
  const held = parseAttribution(attribution)
  if (!held) return null
  try {
    return await makeCheckoutReference(held.code, held.visitorId)
  } catch {
    return null // Web Crypto failing: the checkout goes ahead without a referral
  }
}
