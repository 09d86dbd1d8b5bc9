// Purchases (extension, CONTRACT.md "Purchases"): recorded by the site's backend with a secret
// key, idempotent by order id. In a `purchase` campaign the referred user's first purchase is the
// conversion; a `signup` campaign takes no notice of purchases.

import { creditedClick, issueRewards } from './credit.ts'
import type { Scope } from './keys.ts'
import type { Click, Referral } from './records.ts'
import type { Campaign, EventResult, PurchaseEvent } from './schemas.ts'
import { refusedBefore, refuseSelfReferral, selfReferralOf } from './self-referral.ts'
import type { Store } from './store.ts'

interface Credit {
  campaign: Campaign
  code: string
  referrerId: string
  visitorId: string
  /** The link `code` names, without a click to credit: checked for self-referral, credits nothing. */
  named?: true
}

/**
 * The referral a purchase is credited to, among active purchase campaigns. The buyer's referral by
 * sign-up comes first: the one in `code`'s campaign, or else their latest, whatever link `code`
 * is. Without one, a click credits the buyer's first purchase only (`firstPurchase`: the service
 * has seen none of theirs before), so an existing customer who follows a friend's link earns
 * nobody a reward: `visitorId`'s click on `code`, or without `code` their latest click, inside its
 * window. A first purchase whose `code` has no such click gives that link, `named`, to be checked
 * for self-referral (the referrer's own browser records no click).
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
  const byLink = (code: string, visitorId: string): Credit | undefined => {
    const link = store.linkByCode(scope, code)
    const campaign = link && purchaseCampaign(store.campaign(scope, link.campaignId))
    return campaign && link && { campaign, code, referrerId: link.referrerId, visitorId }
  }
  const byClick = (click: Click | undefined) => click && byLink(click.code, click.visitorId)

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
    const click = creditedClick(store, scope, event.visitorId, event.code, now)
    if (click) return byClick(click)
    const named = byLink(event.code, event.visitorId)
    return named && { ...named, named: true }
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
  const refused = refusedBefore(store, scope, event.id)
  if (refused) return refused
  const firstPurchase = !store.hasBought(scope, event.userId)
  const credit = creditOf(store, scope, event, now, firstPurchase)
  // Only the first purchase credited in a campaign can convert; later ones issue nothing.
  const converting = credit && !store.hasPurchased(scope, credit.campaign.id, event.userId)
  // Extension: a purchase that would credit the referrer's own link is refused, recording nothing.
  const why = converting && selfReferralOf(store, scope, credit, event.userId, credit.visitorId)
  if (converting && why) return refuseSelfReferral(store, scope, credit.campaign, event, why)
  store.markAccepted(scope, event.id)
  store.markOrder(scope, event.orderId, event.userId)
  if (!converting || credit.named) return { id: event.id, status: 'accepted' }

  const { campaign, ...through } = credit
  store.addFirstPurchase(scope, {
    campaignId: campaign.id,
    code: through.code,
    userId: event.userId,
    visitorId: through.visitorId,
    orderId: event.orderId,
    at: now,
  })
  issueRewards(store, scope, campaign, through, event.userId, now, event.orderId)
  return { id: event.id, status: 'accepted' }
}
