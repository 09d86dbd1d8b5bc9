// The campaign and link answers as the widget reads them. Only the referrer's part (the UI file,
// the link file, the ESM package) asks for them, so the script tag's tracking part carries
// neither these parsers nor the calls (src/api/referrer-calls.ts); test/wire-parity.test.ts
// holds them to the service's schemas like the others.
import {
  array,
  boolean,
  literal,
  number,
  object,
  oneOf,
  type Parser,
  string,
} from '../shared/parse.ts'
import {
  attributionWindowDays,
  CAMPAIGN_ID_PATTERN,
  CODE_PATTERN,
  CURRENCY_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  LINK_ID_PATTERN,
  type Link,
  MAX_ATTRIBUTION_DAYS,
  type PublicCampaign,
  type Reward,
} from './wire.ts'

const timestamp = string(ISO_TIMESTAMP_PATTERN)
const amount: Parser<number> = (value) => {
  const parsed = number(value)
  return number(parsed >= 0 && parsed <= 1_000_000 ? parsed : Number.NaN)
}
const reward: Parser<Reward> = object({
  type: literal('credit'),
  amount,
  currency: string(CURRENCY_PATTERN),
})

export const parsePublicCampaign: Parser<PublicCampaign> = object({
  id: string(CAMPAIGN_ID_PATTERN),
  name: string(),
  status: oneOf(['active', 'paused', 'archived']),
  rewardTrigger: string(),
  referrerReward: reward,
  referredReward: reward,
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
