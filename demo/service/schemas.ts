// The wire shapes as the local referral service validates them (zod). The widget reads the same
// shapes with the small parsers of wire.ts and referrer-wire.ts, built from the same patterns.
import * as z from 'zod/mini'
import {
  ATTRIBUTION_WINDOW_PATTERN,
  attributionWindowDays,
  CURRENCY_PATTERN,
  LINK_ID_PATTERN,
  MAX_SUMMARY_RECENT,
  PROMOTION_CODE_PATTERN,
} from '../../src/api/referrer-wire.ts'
import {
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  MAX_ATTRIBUTION_DAYS,
  REFERRER_ID_PATTERN,
} from '../../src/api/wire.ts'

export {
  ATTRIBUTION_WINDOW_PATTERN,
  attributionWindowDays,
  CURRENCY_PATTERN,
  LINK_ID_PATTERN,
  MAX_SUMMARY_RECENT,
  PROMOTION_CODE_PATTERN,
} from '../../src/api/referrer-wire.ts'
export {
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  KEY_PATTERN,
  MAX_ATTRIBUTION_DAYS,
  MAX_EVENTS_PER_REQUEST,
  MAX_USER_TOKEN_LENGTH,
  MAX_USER_TOKEN_LIFETIME_SECONDS,
  ORDER_ID_PATTERN,
  REFERRER_ID_PATTERN,
  USER_TOKEN_PATTERN,
} from '../../src/api/wire.ts'
/** The events and POST /v1/events's answer have a file of their own. */
export * from './event-schemas.ts'

export const CampaignStatus = z.enum(['active', 'paused', 'archived'])
export type CampaignStatus = z.infer<typeof CampaignStatus>

/** What issues the rewards: the referred user's sign-up, or (extension) their first purchase. */
export const RewardTrigger = z.enum(['signup', 'purchase'])
export type RewardTrigger = z.infer<typeof RewardTrigger>

const isoTimestamp = z.string().check(z.regex(ISO_TIMESTAMP_PATTERN))
const amount = z.number().check(z.gte(0), z.lte(1_000_000))
const currency = z.string().check(z.regex(CURRENCY_PATTERN))
const positiveInt = z.int().check(z.positive())
const attributionWindow = z.string().check(
  z.regex(ATTRIBUTION_WINDOW_PATTERN),
  z.refine((value) => attributionWindowDays(value) <= MAX_ATTRIBUTION_DAYS, {
    error: `must be at most ${MAX_ATTRIBUTION_DAYS}d`,
  }),
)

export const Reward = z.object({ type: z.literal('credit'), amount, currency })
export type Reward = z.infer<typeof Reward>

/** Extension: the code the site made at its payment provider for the referred friend. */
const promotionCode = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(PROMOTION_CODE_PATTERN))

/** The referred friend's reward, which may carry a promotion code (extension). */
export const ReferredReward = z.object({
  ...Reward.shape,
  promotionCode: z.optional(promotionCode),
})
export type ReferredReward = z.infer<typeof ReferredReward>

export const Limits = z.object({
  maxReferralsPerUser: z.nullable(positiveInt),
  maxReferralsPerDay: z.nullable(positiveInt),
})
export type Limits = z.infer<typeof Limits>

export const Stats = z.object({
  totalClicks: z.number(),
  totalConversions: z.number(),
  totalRewardsIssued: z.number(),
  /** Extension: clicks, signups and purchases refused because the referrer would earn from them. */
  selfReferrals: z.number(),
  /** Extension: conversions taken back by a refund of the order that made them. */
  reversedConversions: z.number(),
})
export type Stats = z.infer<typeof Stats>

/**
 * What a public key sees of an active campaign, list or detail, as the widget reads it (held to
 * its parser by test/wire-parity.test.ts): a promotion code that is not one is left out, and the
 * campaign still reads.
 */
export const PublicCampaign = z.object({
  id: z.string().check(z.regex(CAMPAIGN_ID_PATTERN)),
  name: z.string(),
  status: CampaignStatus,
  rewardTrigger: z.string(),
  referrerReward: Reward,
  referredReward: z.object({
    ...Reward.shape,
    promotionCode: z.catch(z.optional(promotionCode), undefined),
  }),
  attributionWindow,
  createdAt: isoTimestamp,
})
export type PublicCampaign = z.infer<typeof PublicCampaign>

export const Campaign = z.object({
  ...PublicCampaign.shape,
  rewardTrigger: RewardTrigger,
  referredReward: ReferredReward,
  description: z.string(),
  limits: Limits,
  /** Extension: a public key needs the referrer's user token to make a link. */
  requireUserToken: z.boolean(),
  stats: Stats,
  updatedAt: isoTimestamp,
})
export type Campaign = z.infer<typeof Campaign>

export const PublicCampaignList = z.object({
  data: z.array(PublicCampaign),
  total: z.number(),
  hasMore: z.boolean(),
})
export type PublicCampaignList = z.infer<typeof PublicCampaignList>

// Requests the service validates. Strict objects: an unknown field is an error, which also
// refuses `__proto__` and `constructor` smuggled into a body.

const rewardInput = z.strictObject({
  type: z.literal('credit'),
  amount,
  currency: z.optional(currency),
})

/** `null` means no promotion code: on a patch it removes the one the campaign has. */
const referredRewardInput = z.strictObject({
  ...rewardInput.shape,
  promotionCode: z.optional(z.nullable(promotionCode)),
})

const limitsInput = z.strictObject({
  maxReferralsPerUser: z.optional(z.nullable(positiveInt)),
  maxReferralsPerDay: z.optional(z.nullable(positiveInt)),
})

export const CampaignCreate = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.string().check(z.maxLength(2000))),
  rewardTrigger: RewardTrigger,
  referrerReward: rewardInput,
  referredReward: referredRewardInput,
  limits: z.optional(limitsInput),
  attributionWindow: z.optional(attributionWindow),
  requireUserToken: z.optional(z.boolean()),
})
export type CampaignCreate = z.infer<typeof CampaignCreate>

const rewardPatch = z.strictObject({
  type: z.optional(z.literal('credit')),
  amount: z.optional(amount),
  currency: z.optional(currency),
})

const referredRewardPatch = z.strictObject({
  ...rewardPatch.shape,
  promotionCode: z.optional(z.nullable(promotionCode)),
})

export const NOT_UPDATABLE_FIELDS = ['id', 'stats', 'createdAt', 'updatedAt', 'rewardTrigger']

export const CampaignPatch = z.strictObject({
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  description: z.optional(z.string().check(z.maxLength(2000))),
  status: z.optional(CampaignStatus),
  referrerReward: z.optional(rewardPatch),
  referredReward: z.optional(referredRewardPatch),
  limits: z.optional(limitsInput),
  attributionWindow: z.optional(attributionWindow),
  requireUserToken: z.optional(z.boolean()),
})
export type CampaignPatch = z.infer<typeof CampaignPatch>

export const ListQuery = z.strictObject({
  status: z.optional(CampaignStatus),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, { error: 'must be an integer from 1 to 100' })),
      z.pipe(
        z.transform((value: string) => Number(value)),
        z.int().check(z.gte(1), z.lte(100)),
      ),
    ),
  ),
  startingAfter: z.optional(z.string().check(z.regex(CAMPAIGN_ID_PATTERN))),
})

export const LinkCreate = z.strictObject({
  campaignId: z.string().check(z.regex(CAMPAIGN_ID_PATTERN)),
  referrerId: z.string().check(z.regex(REFERRER_ID_PATTERN)),
  /** Extension: the referrer's user token; its shape is checked with its signature (401). */
  userToken: z.optional(z.string()),
  /** Extension: the browser asking for the link, whose own clicks and sign-ups then earn nothing. */
  visitorId: z.optional(z.string().check(z.regex(CLIENT_ID_PATTERN))),
})

export const Link = z.object({
  id: z.string().check(z.regex(LINK_ID_PATTERN)),
  code: z.string().check(z.regex(CODE_PATTERN)),
  campaignId: z.string(),
  referrerId: z.string(),
  createdAt: isoTimestamp,
})
export type Link = z.infer<typeof Link>

const count = z.int().check(z.gte(0))

/** Extension: a referrer's own results, with nothing that names whom they referred. */
export const LinkSummary = z.object({
  code: z.string().check(z.regex(CODE_PATTERN)),
  campaignId: z.string().check(z.regex(CAMPAIGN_ID_PATTERN)),
  clicks: count,
  signups: count,
  conversions: count,
  /** Extension (purchases): absent from a service that does not take purchases. */
  buyers: z.optional(count),
  rewardsEarned: z.object({ amount: z.number().check(z.gte(0)), currency }),
  recent: z
    .array(
      z.object({
        at: isoTimestamp,
        status: z.enum(['clicked', 'signed_up', 'converted']),
      }),
    )
    .check(z.maxLength(MAX_SUMMARY_RECENT)),
})
export type LinkSummary = z.infer<typeof LinkSummary>

export const ErrorBody = z.object({
  error: z.object({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    param: z.optional(z.string()),
  }),
})
export type ErrorBody = z.infer<typeof ErrorBody>
