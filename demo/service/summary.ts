// A referrer's own results for one link (extension: CONTRACT.md "The referrer's summary"):
// figures and a short history, never an id, a name or a visitor id of the people referred.

import { iso } from './clock.ts'
import type { Scope } from './keys.ts'
import { type Campaign, type Link, type LinkSummary, MAX_SUMMARY_RECENT } from './schemas.ts'
import type { Store } from './store.ts'

type Status = LinkSummary['recent'][number]['status']

const STEP: Record<Status, number> = { clicked: 0, signed_up: 1, converted: 2 }

/** Amounts are summed in millionths, so that 0.1 + 0.2 earns 0.3. */
const MICRO = 1_000_000

export function linkSummary(
  store: Store,
  scope: Scope,
  link: Link,
  campaign: Campaign,
): LinkSummary {
  const clicks = store.clicksOfCode(scope, link.code)
  const signups = store.signupsOfCode(scope, link.code)
  // Extension (refunds): a reversed conversion is counted out, and its visitor is back at the
  // step they reached before it.
  const conversions = store
    .conversionsOfCode(scope, link.code)
    .filter((conversion) => conversion.reversedAt === undefined)

  // Each conversion earned the reward of its day. An amount in another currency than today's
  // has no honest exchange rate here, so it is left out rather than added as if it were today's.
  const { currency } = campaign.referrerReward
  const earned = conversions
    .filter((conversion) => conversion.referrerReward.currency === currency)
    .reduce((sum, conversion) => sum + Math.round(conversion.referrerReward.amount * MICRO), 0)

  // One entry per referred visitor, at the furthest step they reached and when they reached it.
  const furthest = new Map<string, { at: number; status: Status }>()
  const reach = (visitorId: string, at: number, status: Status) => {
    const known = furthest.get(visitorId)
    const further = !known || STEP[status] > STEP[known.status]
    const later = known !== undefined && STEP[status] === STEP[known.status] && at > known.at
    if (further || later) furthest.set(visitorId, { at, status })
  }
  for (const click of clicks) reach(click.visitorId, click.at, 'clicked')
  for (const signup of signups) reach(signup.visitorId, signup.at, 'signed_up')
  for (const conversion of conversions) reach(conversion.visitorId, conversion.at, 'converted')

  return {
    code: link.code,
    campaignId: link.campaignId,
    clicks: clicks.length,
    // People, not events: one user signing up twice through the link is one friend.
    signups: new Set(signups.map((signup) => signup.userId)).size,
    conversions: conversions.length,
    // Extension (purchases): people, one first purchase each at most.
    buyers: store.firstPurchasesOfCode(scope, link.code).length,
    rewardsEarned: { amount: earned / MICRO, currency },
    recent: [...furthest.values()]
      .sort((a, b) => b.at - a.at)
      .slice(0, MAX_SUMMARY_RECENT)
      .map(({ at, status }) => ({ at: iso(at), status })),
  }
}
