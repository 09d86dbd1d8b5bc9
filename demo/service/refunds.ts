// Refunds (extension, CONTRACT.md "Refunds"): recorded by the site's backend with a secret key,
// idempotent by the refund's own id. A refund of the order that made a conversion in a purchase
// campaign reverses that conversion, once; any other refund is accepted and changes nothing. A
// signup campaign's conversions have no order, so no refund reaches them.

import type { Scope } from './keys.ts'
import type { EventResult, RefundEvent } from './schemas.ts'
import { refusedBefore } from './self-referral.ts'
import type { Store } from './store.ts'

export function ingestRefund(
  store: Store,
  scope: Scope,
  event: RefundEvent,
  now: number,
): EventResult {
  if (store.isAccepted(scope, event.id)) return { id: event.id, status: 'duplicate' }
  // An id refused as a self-referral before keeps that verdict, as for every event.
  const refused = refusedBefore(store, scope, event.id)
  if (refused) return refused
  store.markAccepted(scope, event.id)

  // Whole or partial, the refund takes the conversion back: the site's provider decides which
  // it sends, and the service does not weigh amounts. A second refund of the order finds it gone.
  const reversed = store.reverseConversion(scope, event.orderId, now)
  // Whatever the campaign's status now: the rewards were issued, and the refund takes them back.
  const campaign = reversed && store.campaign(scope, reversed.campaignId)
  if (campaign) {
    campaign.stats.totalConversions -= 1
    campaign.stats.totalRewardsIssued -= 2 // one reward from each party
    campaign.stats.reversedConversions += 1
    store.saveCampaign(scope, campaign)
  }
  return { id: event.id, status: 'accepted' }
}
