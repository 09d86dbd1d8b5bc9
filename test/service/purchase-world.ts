// A service with a purchase campaign (extension: CONTRACT.md "Purchases"), and the calls the
// purchase tests make: the widget's clicks and signups with the public key, the site's backend's
// purchases (and refunds) with the secret key.

import { expect } from 'vitest'
import type { Campaign, EventResult, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { createCampaign, DEMO_KEYS, setup } from './helpers.ts'

const { pkTest, skTest } = DEMO_KEYS.acme

type Results = { results: EventResult[] }

let serial = 0
/** A fresh, well-formed event id. */
export const eventId = () => `evt_buy_${String(++serial).padStart(8, '0')}`

/** A purchase event as the site's backend sends it; `extra` adds or replaces fields. */
export const purchase = (userId: string, orderId: string, extra: Record<string, unknown> = {}) => ({
  id: eventId(),
  type: 'purchase',
  userId,
  orderId,
  amount: 49.9,
  currency: 'EUR',
  ...extra,
})

let refunds = 0
/**
 * A refund as the site's backend sends it (extension: CONTRACT.md "Refunds"): only the order
 * and the refund's own id; `extra` adds or replaces fields.
 */
export const refund = (orderId: string, extra: Record<string, unknown> = {}) => ({
  id: `re_${String(++refunds).padStart(8, '0')}`,
  type: 'refund',
  orderId,
  ...extra,
})

export async function purchaseWorld(limits?: Record<string, number>) {
  const ctx = setup()
  const { call } = ctx
  const campaignId = await createCampaign(call, {
    name: 'First purchase',
    rewardTrigger: 'purchase',
    referrerReward: { type: 'credit', amount: 15, currency: 'EUR' },
    referredReward: { type: 'credit', amount: 10, currency: 'EUR' },
    ...(limits ? { limits } : {}),
  })

  const send = (events: unknown[], key: string) =>
    call<Results>('POST', '/v1/events', { key, body: { events } })
  /** Sends events and returns each one's status. */
  const statuses = async (events: unknown[], key: string) => {
    const answer = await send(events, key)
    expect(answer.status).toBe(200)
    return answer.body.results.map((result) => result.status)
  }

  const world = {
    ...ctx,
    campaignId,
    send,
    async link(referrerId: string, campaign = campaignId) {
      const answer = await call<Link>('POST', '/v1/links', {
        key: pkTest,
        body: { campaignId: campaign, referrerId },
      })
      expect([200, 201]).toContain(answer.status)
      return answer.body.code
    },
    /** A visitor arriving through the link, in the page (public key). */
    async click(code: string, visitorId: string) {
      const event = { id: eventId(), type: 'click', code, visitorId }
      expect(await statuses([event], pkTest)).toEqual(['accepted'])
    },
    /** The visitor signing up, in the page (public key). */
    async signup(visitorId: string, userId: string, code?: string) {
      const event = { id: eventId(), type: 'signup', visitorId, userId, ...(code ? { code } : {}) }
      expect(await statuses([event], pkTest)).toEqual(['accepted'])
    },
    /** A visitor who arrives through the link and signs up. */
    async referred(code: string, userId: string) {
      await world.click(code, `visitor_${userId}`)
      await world.signup(`visitor_${userId}`, userId, code)
    },
    /** Purchases from the site's backend (secret key): each one's status. */
    buy: (...events: unknown[]) => statuses(events, skTest),
    /** Refunds from the site's backend (secret key): each one's status. */
    recordRefunds: (...events: unknown[]) => statuses(events, skTest),
    async stats(campaign = campaignId) {
      const answer = await call<Campaign>('GET', `/v1/campaigns/${campaign}`, { key: skTest })
      expect(answer.status).toBe(200)
      return answer.body.stats
    },
    async summary(code: string) {
      const answer = await call<LinkSummary>('GET', `/v1/links/${code}/summary`, { key: skTest })
      expect(answer.status).toBe(200)
      return answer.body
    },
  }
  return world
}

export const NOTHING = {
  totalClicks: 0,
  totalConversions: 0,
  totalRewardsIssued: 0,
  selfReferrals: 0,
  reversedConversions: 0,
}

/** Extension (refunds): the stats of a purchase campaign after one click and one conversion. */
export const CONVERTED = { ...NOTHING, totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }

/**
 * Extension (refunds): alice's friend bob, referred at sign-up, whose first order (`order_1`)
 * converted.
 */
export async function convertedWorld(limits?: Record<string, number>) {
  const world = await purchaseWorld(limits)
  const code = await world.link('alice')
  await world.referred(code, 'user_bob')
  expect(await world.buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
  expect(await world.stats()).toEqual(CONVERTED)
  return { ...world, code }
}
