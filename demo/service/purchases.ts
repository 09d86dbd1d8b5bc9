// Purchases (extension, CONTRACT.md "Purchases"): recorded by the site's backend with a secret
// key, idempotent by order id. In a `purchase` campaign the referred user's first purchase is the
// conversion; a `signup` campaign takes no notice of purchases.

import { creditedClick, issueRewards } from './credit.ts'
import type { Scope } from './keys.ts'
import type { Click, Referral } from './records.ts'
import type { Campaign, EventResult, PurchaseEvent } from './schemas.ts'
import type { Store } from './store.ts'

interface Credit {
  campaign: Campaign
  code: string
  referrerId: string
  visitorId: string
}

/**
 * The referral a purchase is credited to. With `code`, that code's campaign decides: the user's
 * referral there by sign-up, or else the visitor's click on the code inside its window. Without
 * it: the user's latest referral by sign-up, or else the visitor's latest click inside its window,
 * among active purchase campaigns.
 */
function creditOf(store: Store, scope: Scope, event: PurchaseEvent, now: number) {
  const purchaseCampaign = (campaign: Campaign | undefined) =>
    campaign?.status === 'active' && campaign.rewardTrigger === 'purchase' ? campaign : undefined
  const byReferral = (referral: Referral): Credit | undefined => {
    const campaign = purchaseCampaign(store.campaign(scope, referral.campaignId))
    return campaign && { ...referral, campaign }
  }
  const byClick = (click: Click | undefined): Credit | undefined => {
    const link = click && store.linkByCode(scope, click.code)
    const campaign = link && purchaseCampaign(store.campaign(scope, link.campaignId))
    if (!click || !link || !campaign) return undefined
    return { campaign, code: link.code, referrerId: link.referrerId, visitorId: click.visitorId }
  }

  if (event.code !== undefined) {
    const link = store.linkByCode(scope, event.code)
    if (!link) return undefined
    const referral = store.referral(scope, link.campaignId, event.userId)
    if (referral) return byReferral(referral)
    return event.visitorId === undefined
      ? undefined
      : byClick(creditedClick(store, scope, event.visitorId, event.code, now))
  }
  const latest = store
    .referralsOfUser(scope, event.userId)
    .filter((referral) => purchaseCampaign(store.campaign(scope, referral.campaignId)))
    .reduce<Referral | undefined>(
      (last, referral) => (!last || referral.at >= last.at ? referral : last),
      undefined,
    )
  if (latest) return byReferral(latest)
  if (event.visitorId === undefined) return undefined
  const click = creditedClick(store, scope, event.visitorId, undefined, now, (campaign) =>
    Boolean(purchaseCampaign(campaign)),
  )
  return byClick(click)
}

export function ingestPurchase(
  store: Store,
  scope: Scope,
  event: PurchaseEvent,
  now: number,
): EventResult {
  if (event.code !== undefined && event.visitorId === undefined) {
    return {
      id: event.id,
      status: 'rejected',
      error: {
        code: 'parameter_missing',
        message: 'visitorId is required with code: it names the click to credit.',
        param: 'visitorId',
      },
    }
  }
  // The order id is the idempotency key: a second event for one order changes nothing.
  if (store.isAccepted(scope, event.id) || store.orderTaken(scope, event.orderId)) {
    return { id: event.id, status: 'duplicate' }
  }
  store.markAccepted(scope, event.id)
  store.markOrder(scope, event.orderId)

  const credit = creditOf(store, scope, event, now)
  if (!credit || credit.referrerId === event.userId) return { id: event.id, status: 'accepted' }
  const { campaign, ...through } = credit
  // Only the first purchase credited in a campaign can convert; later ones issue nothing.
  if (store.hasPurchased(scope, campaign.id, event.userId)) {
    return { id: event.id, status: 'accepted' }
  }
  store.addFirstPurchase(scope, {
    campaignId: campaign.id,
    code: through.code,
    userId: event.userId,
    visitorId: through.visitorId,
    orderId: event.orderId,
    at: now,
  })
  issueRewards(store, scope, campaign, through, event.userId, now)
  return { id: event.id, status: 'accepted' }
}
