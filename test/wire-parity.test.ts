// The widget reads the wire with the small parsers of src/api/wire.ts; the service validates
// with the zod schemas of demo/service/schemas.ts. Both must give the same verdict on the same data.
import { describe, expect, it } from 'vitest'
import {
  EventsResponse,
  Link,
  LinkSummary,
  PublicCampaign,
  PublicCampaignList,
} from '../demo/service/schemas.ts'
import {
  parseLink,
  parsePublicCampaign,
  parsePublicCampaignList,
} from '../src/api/referrer-wire.ts'
import { parseLinkSummary } from '../src/api/summary.ts'
import { parseEventsResponse } from '../src/api/wire.ts'
import { type Parser, parse } from '../src/shared/parse.ts'

const campaign = {
  id: 'camp_acmeFriendsAndFamily',
  name: 'Acme',
  status: 'active',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
  referredReward: { type: 'credit', amount: 7.5, currency: 'EUR' },
  attributionWindow: '30d',
  createdAt: '2026-01-15T12:00:00.000Z',
}
const link = {
  id: 'link_abcdefghijklmnop',
  code: 'AbCdEf1234',
  campaignId: 'camp_acmeFriendsAndFamily',
  referrerId: 'alice',
  createdAt: '2026-01-15T12:00:00.000Z',
}

const summary = {
  code: 'AbCdEf1234',
  campaignId: 'camp_acmeFriendsAndFamily',
  clicks: 4,
  signups: 2,
  conversions: 1,
  rewardsEarned: { amount: 12.5, currency: 'USD' },
  recent: [
    { at: '2026-01-15T12:05:00.000Z', status: 'converted' },
    { at: '2026-01-15T12:01:00.000Z', status: 'clicked' },
  ],
}
/** Promotion codes a service may send (extension): valid ones, and ones that are not codes. */
const PROMOTION_CODES = [
  'FRIEND10',
  'a',
  'x'.repeat(64),
  'x'.repeat(65),
  '',
  'FRIEND 10',
  'É10',
  7,
  null,
]
const withPromotionCode = (promotionCode: unknown) => ({
  ...campaign,
  referredReward: { ...campaign.referredReward, promotionCode },
})
const recentEntry = { at: '2026-01-15T12:00:00.000Z', status: 'signed_up' }

/** Each variant changes one thing: the two sides must agree on every one. */
function variants(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [base, null, [], 'text', 42, {}]
  const odd = [undefined, null, '', 'x', -1, 1e9, Number.NaN, true, [], {}, 'camp_x', '2026-01-15']
  for (const key of Object.keys(base)) {
    for (const value of odd) out.push({ ...base, [key]: value })
    const { [key]: _dropped, ...rest } = base
    out.push(rest)
  }
  out.push({ ...base, extra: 'field' })
  return out
}

type ZodLike = { safeParse(value: unknown): { success: boolean } }

function agree(name: string, parser: Parser<unknown>, schema: ZodLike, cases: unknown[]) {
  it(`${name}: same verdict on ${cases.length} inputs`, () => {
    const differ = cases.filter(
      (value) => (parse(parser, value) !== null) !== schema.safeParse(value).success,
    )
    expect(differ).toEqual([])
  })
}

describe('wire parsers agree with the service schemas', () => {
  agree('public campaign', parsePublicCampaign, PublicCampaign, [
    ...variants(campaign),
    { ...campaign, rewardTrigger: 'purchase' },
    ...variants(campaign.referrerReward).map((reward) => ({ ...campaign, referrerReward: reward })),
    // Extension: the friend's promotion code. Whatever it is, the campaign reads on both sides.
    ...PROMOTION_CODES.map(withPromotionCode),
    { ...campaign, status: 'paused' },
    { ...campaign, attributionWindow: '0d' },
    { ...campaign, attributionWindow: '365d' },
    { ...campaign, attributionWindow: '366d' },
    { ...campaign, attributionWindow: ['30d'] },
  ])
  agree('campaign list', parsePublicCampaignList, PublicCampaignList, [
    { data: [campaign], total: 1, hasMore: false },
    { data: [], total: 0, hasMore: false },
    { data: [{ ...campaign, id: 'nope' }], total: 1, hasMore: false },
    { data: [campaign], total: '1', hasMore: false },
    { data: campaign, total: 1, hasMore: false },
    { data: [campaign], total: 1 },
  ])
  agree('link', parseLink, Link, variants(link))
  agree('events response', parseEventsResponse, EventsResponse, [
    { results: [] },
    { results: [{ id: 'evt_12345678', status: 'accepted' }] },
    { results: [{ id: null, status: 'rejected', error: { code: 'x', message: 'y' } }] },
    { results: [{ id: 'evt_12345678', status: 'maybe' }] },
    { results: [{ id: 5, status: 'accepted' }] },
    { results: [{ id: 'evt_12345678', status: 'rejected', error: { code: 1 } }] },
    // Extension: the event's field at fault.
    {
      results: [
        { id: null, status: 'rejected', error: { code: 'x', message: 'y', param: 'amount' } },
      ],
    },
    { results: [{ id: null, status: 'rejected', error: { code: 'x', message: 'y', param: 7 } }] },
    {
      results: [{ id: null, status: 'rejected', error: { code: 'x', message: 'y', param: null } }],
    },
    { results: 'none' },
    {},
  ])

  agree('link summary', parseLinkSummary, LinkSummary, [
    ...variants(summary),
    ...variants(summary.rewardsEarned).map((rewardsEarned) => ({ ...summary, rewardsEarned })),
    ...variants(recentEntry).map((entry) => ({ ...summary, recent: [entry] })),
    { ...summary, clicks: 1.5 },
    { ...summary, rewardsEarned: { amount: 2_000_000, currency: 'USD' } },
    { ...summary, recent: [] },
    { ...summary, recent: Array.from({ length: 10 }, () => recentEntry) },
    { ...summary, recent: Array.from({ length: 11 }, () => recentEntry) },
    // Extension (purchases): friends who bought, absent from a service without purchases.
    ...variants({ ...summary, buyers: 1 }),
    { ...summary, buyers: 0 },
    { ...summary, buyers: 2.5 },
    { ...summary, buyers: -1 },
    { ...summary, buyers: '1' },
  ])

  it.each(PROMOTION_CODES)(
    'read the promotion code %j alike: kept where valid, left out if not',
    (code) => {
      const read = parse(parsePublicCampaign, withPromotionCode(code))?.referredReward
      const judged = PublicCampaign.parse(withPromotionCode(code)).referredReward
      expect(read?.promotionCode).toBe(judged.promotionCode)
      const valid = typeof code === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(code)
      expect(read?.promotionCode).toBe(valid ? code : undefined)
    },
  )

  it('drop fields they do not know, as the schemas do', () => {
    expect(parse(parseLink, { ...link, extra: '<script>' })).toEqual(link)
    expect(Link.parse({ ...link, extra: '<script>' })).toEqual(link)
  })
})
