// What signups and purchases share: the click an event is credited to, and the conversion that
// issues both rewards when the campaign's limits allow it.

import { DAY, utcDay } from './clock.ts'
import type { Scope } from './keys.ts'
import type { Click } from './records.ts'
import { attributionWindowDays, type Campaign } from './schemas.ts'
import type { Store } from './store.ts'

/**
 * The visitor's click an event is credited to: the most recent one still inside its campaign's
 * window (of `code` only, if given; of the campaigns `accept` takes, if given), the first
 * recorded of a tie.
 */
export function creditedClick(
  store: Store,
  scope: Scope,
  visitorId: string,
  code: string | undefined,
  now: number,
  accept: (campaign: Campaign) => boolean = () => true,
): Click | undefined {
  const within = (click: Click) => {
    const campaign = store.campaign(scope, click.campaignId)
    if (!campaign || !accept(campaign)) return false
    return now - click.at <= attributionWindowDays(campaign.attributionWindow) * DAY
  }
  return store
    .latestClicks(scope, visitorId, code)
    .filter(within)
    .sort((a, b) => b.at - a.at)[0]
}

/**
 * A conversion of `userId` through the referrer's link: one reward to each party, unless the
 * user converted in this campaign already or the referrer reached a limit. `orderId`: the
 * purchase that converts, in a purchase campaign, whose refund reverses it (refunds.ts).
 */
export function issueRewards(
  store: Store,
  scope: Scope,
  campaign: Campaign,
  through: { code: string; referrerId: string; visitorId: string },
  userId: string,
  now: number,
  orderId?: string,
) {
  if (store.hasConverted(scope, campaign.id, userId)) return
  const { maxReferralsPerUser, maxReferralsPerDay } = campaign.limits
  const referred = (day?: number) =>
    store.conversionCount(scope, campaign.id, through.referrerId, day)
  if (maxReferralsPerUser !== null && referred() >= maxReferralsPerUser) return
  if (maxReferralsPerDay !== null && referred(utcDay(now)) >= maxReferralsPerDay) return
  store.addConversion(scope, {
    campaignId: campaign.id,
    referrerId: through.referrerId,
    userId,
    at: now,
    code: through.code,
    visitorId: through.visitorId,
    referrerReward: {
      amount: campaign.referrerReward.amount,
      currency: campaign.referrerReward.currency,
    },
    ...(orderId === undefined ? {} : { orderId }),
  })
  campaign.stats.totalConversions += 1
  campaign.stats.totalRewardsIssued += 2 // one reward to each party
  store.saveCampaign(scope, campaign)
}
