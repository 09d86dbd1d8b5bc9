// The campaign and link answers as the widget reads them, and the patterns only they use. Only
// the referrer's part (the UI file, the link file, the ESM package) asks for them, so the script
// tag's tracking part carries neither these parsers nor the calls (src/api/referrer-calls.ts);
// test/wire-parity.test.ts holds them to the service's schemas like the others.
import {
  array,
  boolean,
  literal,
  number,
  object,
  oneOf,
  type Parser,
  parse,
  string,
} from '../shared/parse.ts'
import {
  CAMPAIGN_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  type Link,
  MAX_ATTRIBUTION_DAYS,
  type PublicCampaign,
  type ReferredReward,
  type Reward,
} from './wire.ts'

export const LINK_ID_PATTERN = /^link_[A-Za-z0-9_-]{16,64}$/
export const CURRENCY_PATTERN = /^[A-Z]{3}$/
/** A friend's promotion code (extension, CONTRACT.md "Promotion code"). */
export const PROMOTION_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
export const ATTRIBUTION_WINDOW_PATTERN = /^[1-9][0-9]*d$/
/** How many recent referrals a link's summary lists. */
export const MAX_SUMMARY_RECENT = 10

/** Days in a window such as `30d`; NaN for anything else. */
export function attributionWindowDays(value: string): number {
  return ATTRIBUTION_WINDOW_PATTERN.test(value) ? Number(value.slice(0, -1)) : Number.NaN
}

const timestamp = string(ISO_TIMESTAMP_PATTERN)
const amount: Parser<number> = (value) => {
  const parsed = number(value)
  return number(parsed >= 0 && parsed <= 1_000_000 ? parsed : Number.NaN)
}
const rewardShape = { type: literal('credit'), amount, currency: string(CURRENCY_PATTERN) }
const reward: Parser<Reward> = object(rewardShape)
/** The value where it fits, otherwise left out: an extension's field never costs the rest. */
const ifValid =
  <T>(parser: Parser<T>): Parser<T | undefined> =>
  (value) =>
    parse(parser, value) ?? undefined
/** A promotion code that is not one is left out: the campaign still shows, with no code. */
const referredReward: Parser<ReferredReward> = object({
  ...rewardShape,
  promotionCode: ifValid(string(PROMOTION_CODE_PATTERN)),
})

export const parsePublicCampaign: Parser<PublicCampaign> = object({
  id: string(CAMPAIGN_ID_PATTERN),
  name: string(),
  status: oneOf(['active', 'paused', 'archived']),
  rewardTrigger: string(),
  referrerReward: reward,
  referredReward,
  attributionWindow: (value) =>
    string()(attributionWindowDays(value as string) <= MAX_ATTRIBUTION_DAYS ? value : null),
  createdAt: timestamp,
})

export const parsePublicCampaignList: Parser<{
  data: PublicCampaign[]
  total: number
  hasMore: boolean
}> = object({ data: array(parsePublicCampaign), total: number, hasMore: boolean })

export const parseLink: Parser<Link> = object({
  id: string(LINK_ID_PATTERN),
  code: string(CODE_PATTERN),
  campaignId: string(),
  referrerId: string(),
  createdAt: timestamp,
})
