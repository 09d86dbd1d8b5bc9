// Self-referrals (extension, CONTRACT.md "Self-referrals"): a referrer earns nothing from their own
// link. A click, signup or purchase that would be credited to a link is refused when its user is
// the link's referrer, or its visitor is a browser that asked for the link (POST /v1/links with
// `visitorId`); each refusal counts once in the campaign's `stats.selfReferrals`. One verdict
// whichever request comes first: a browser's click that was accepted before the same browser
// asked for the link is taken back then, as if refused.

import type { Scope } from './keys.ts'
import type { Campaign, EventResult, Link } from './schemas.ts'
import type { Store } from './store.ts'

/** Why crediting a link would reward its own referrer. */
export type SelfReferral = 'referrer' | 'visitor'

/** Whether `userId` or `visitorId` is the link's referrer's own, and which. */
export function selfReferralOf(
  store: Store,
  scope: Scope,
  link: Pick<Link, 'code' | 'referrerId'>,
  userId: string | undefined,
  visitorId: string | undefined,
): SelfReferral | undefined {
  if (userId !== undefined && userId === link.referrerId) return 'referrer'
  if (visitorId !== undefined && store.isLinkVisitor(scope, link.code, visitorId)) return 'visitor'
  return undefined
}

const MESSAGES: Record<SelfReferral, (what: string) => string> = {
  referrer: (what) => `A referrer's own ${what} is not counted: userId is the link's referrer.`,
  visitor: (what) => `A referrer's own ${what} is not counted: this visitor asked for the link.`,
}

const refusal = (id: string, message: string): EventResult => ({
  id,
  status: 'rejected',
  error: { code: 'self_referral', message },
})

/** The event's `rejected` result, counted once in the campaign's `stats.selfReferrals`. */
export function refuseSelfReferral(
  store: Store,
  scope: Scope,
  campaign: Campaign,
  event: { id: string; type: 'click' | 'signup' | 'purchase' },
  why: SelfReferral,
): EventResult {
  const message = MESSAGES[why](event.type)
  store.markSelfReferral(scope, event.id, message)
  campaign.stats.selfReferrals += 1
  store.saveCampaign(scope, campaign)
  return refusal(event.id, message)
}

/**
 * The verdict on an event id refused as a self-referral before: refused again and counted no more,
 * as an accepted id is `duplicate`, so that a retried request changes nothing.
 */
export function refusedBefore(store: Store, scope: Scope, eventId: string) {
  const message = store.selfReferral(scope, eventId)
  return message === undefined ? undefined : refusal(eventId, message)
}

/**
 * The browser that asked for `link` clicked it before (its click reached the service first): each
 * such click is taken back, as if it had been refused. It leaves `totalClicks` for
 * `selfReferrals`, credits nothing from now on, and a retry of its event says `self_referral`.
 * A click that already brought a sign-up stays: that referral happened (a friend's computer the
 * referrer borrows later), and what it earned is not taken back.
 */
export function disownClicks(store: Store, scope: Scope, link: Link, visitorId: string) {
  const signedUp = store.signupsOfCode(scope, link.code).some((s) => s.visitorId === visitorId)
  if (signedUp) return
  const taken = store.disownClicks(scope, link.code, visitorId)
  const campaign = store.campaign(scope, link.campaignId)
  if (taken.length === 0 || !campaign) return
  for (const click of taken) store.markSelfReferral(scope, click.eventId, MESSAGES.visitor('click'))
  campaign.stats.totalClicks -= taken.length
  campaign.stats.selfReferrals += taken.length
  store.saveCampaign(scope, campaign)
}
