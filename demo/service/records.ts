// What the service records of events, as the store keeps it: clicks, the signups and purchases
// credited to them, and conversions, reversed ones included. Every record is scoped to one
// organization and mode.

/** Extension (self-referrals): how many of the visitors that asked for a link it remembers. */
export const MAX_LINK_VISITORS = 50

export interface Click {
  /** The click event's id: a click taken back as a self-referral (self-referral.ts) says so. */
  eventId: string
  visitorId: string
  code: string
  campaignId: string
  at: number
}

/**
 * A signup credited to a click of `code` (extension: the referrer's summary), whether or not it
 * became a conversion. A referrer signing up through their own link is not one.
 */
export interface Signup {
  code: string
  campaignId: string
  visitorId: string
  userId: string
  at: number
}

/**
 * Extension (purchases): a user referred in a `purchase` campaign, by the first signup of theirs
 * credited there. Their first purchase is then credited to this link.
 */
export interface Referral {
  campaignId: string
  code: string
  referrerId: string
  userId: string
  visitorId: string
  at: number
}

/** Extension (purchases): a user's first purchase credited in a campaign, converted or not. */
export interface FirstPurchase {
  campaignId: string
  code: string
  userId: string
  visitorId: string
  orderId: string
  at: number
}

export interface Conversion {
  campaignId: string
  referrerId: string
  userId: string
  at: number
  /** The link and visitor it came through (extension: the referrer's summary). */
  code: string
  visitorId: string
  /** The referrer's reward as the campaign gave it at that moment: a later change does not reach it. */
  referrerReward: { amount: number; currency: string }
  /** Extension (purchases): the order that made it, in a `purchase` campaign. */
  orderId?: string
  /**
   * Extension (refunds): when a refund of that order took it back. It stays on record, so that the
   * user cannot convert again in the campaign, but it counts nowhere: not in stats, limits or the
   * referrer's summary.
   */
  reversedAt?: number
}
