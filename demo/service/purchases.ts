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
 * The referral a purchase is credited to, among active purchase campaigns. The buyer's referral by
 * sign-up comes first: the one in `code`'s campaign, or else their latest, whatever link `code`
 * is. Without one, a click credits the buyer's first purchase only (`firstPurchase`: the service
 * has seen none of theirs before), so an existing customer who follows a friend's link earns
 * nobody a reward: `visitorId`'s click on `code`, or without `code` their latest click, inside its
 * window.
 */
function creditOf(
  store: Store,
  scope: Scope,
  event: PurchaseEvent,
  now: number,
  firstPurchase: boolean,
) {
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

  const referrals = store
    .referralsOfUser(scope, event.userId)
    .filter((referral) => purchaseCampaign(store.campaign(scope, referral.campaignId)))
  const campaignOfCode =
    event.code === undefined ? undefined : store.linkByCode(scope, event.code)?.campaignId
  const referral =
    referrals.find((candidate) => candidate.campaignId === campaignOfCode) ??
    referrals.reduce<Referral | undefined>(
      (last, candidate) => (!last || candidate.at >= last.at ? candidate : last),
      undefined,
    )
  if (referral) return byReferral(referral)
  if (!firstPurchase || event.visitorId === undefined) return undefined
  if (event.code !== undefined) {
    return byClick(creditedClick(store, scope, event.visitorId, event.code, now))
  }
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
  const firstPurchase = !store.hasBought(scope, event.userId)
  store.markAccepted(scope, event.id)
  store.markOrder(scope, event.orderId, event.userId)

  const credit = creditOf(store, scope, event, now, firstPurchase)
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
