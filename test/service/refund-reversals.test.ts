// What a refund takes back (extension, CONTRACT.md "Refunds"): the conversion its order made, once,
// out of the campaign's stats and the referrer's summary, for good; any other refund changes
// nothing. The campaign's stats and the referrer's summary are the judge.

import { describe, expect, it } from 'vitest'
import { DEMO_CAMPAIGNS, DEMO_KEYS } from './helpers.ts'
import {
  CONVERTED,
  convertedWorld,
  NOTHING,
  purchase,
  purchaseWorld,
  refund,
} from './purchase-world.ts'

const REVERSED = { ...NOTHING, totalClicks: 1, reversedConversions: 1 }

describe('a refund of the order that made a conversion', () => {
  it("reverses it: conversions -1, rewards -2, reversedConversions +1, and the referrer's summary counts it out", async () => {
    const { recordRefunds, stats, summary, code, campaignId } = await convertedWorld()
    expect(await summary(code)).toMatchObject({
      conversions: 1,
      rewardsEarned: { amount: 15, currency: 'EUR' },
    })

    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual(REVERSED)
    expect(await summary(code)).toEqual({
      code,
      campaignId,
      clicks: 1,
      signups: 1,
      conversions: 0,
      // A buyer still: the purchase was made (CONTRACT.md "Refunds").
      buyers: 1,
      rewardsEarned: { amount: 0, currency: 'EUR' },
      // Back at the step the friend reached before the purchase.
      recent: [{ at: expect.any(String), status: 'signed_up' }],
    })
  })

  it('whole or partial, with amount and currency or without: the same reversal', async () => {
    const { recordRefunds, stats } = await convertedWorld()
    const partial = refund('order_1', { amount: 5, currency: 'EUR' })
    expect(await recordRefunds(partial)).toEqual(['accepted'])
    expect(await stats()).toEqual(REVERSED)
  })

  it('reverses once: the same refund again is duplicate, a second refund of the order changes nothing more', async () => {
    const { recordRefunds, stats, summary, code } = await convertedWorld()
    const first = refund('order_1', { amount: 20, currency: 'EUR' })
    expect(await recordRefunds(first)).toEqual(['accepted'])
    expect(await recordRefunds(first)).toEqual(['duplicate'])
    expect(await recordRefunds(refund('order_1', { amount: 29.9 }))).toEqual(['accepted'])
    expect(await recordRefunds(refund('order_1'), refund('order_1'))).toEqual([
      'accepted',
      'accepted',
    ])
    expect(await stats()).toEqual(REVERSED)
    expect((await summary(code)).conversions).toBe(0)
  })

  it('delivered 10 times at once, reverses once: one accepted, nine duplicates', async () => {
    const { send, stats } = await convertedWorld()
    const once = refund('order_1')
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send([once], DEMO_KEYS.acme.skTest)),
    )
    const outcomes = answers.map((answer) => answer.body.results[0]?.status)
    expect(outcomes.filter((status) => status === 'accepted')).toHaveLength(1)
    expect(outcomes.filter((status) => status === 'duplicate')).toHaveLength(9)
    expect(await stats()).toEqual(REVERSED)
  })

  it("is not earned again: the buyer's later purchases issue nothing", async () => {
    const { recordRefunds, buy, stats, summary, code, referred } = await convertedWorld()
    await recordRefunds(refund('order_1'))
    expect(await buy(purchase('user_bob', 'order_2'), purchase('user_bob', 'order_3'))).toEqual([
      'accepted',
      'accepted',
    ])
    // Nor by signing up through the link again.
    await referred(code, 'user_bob')
    expect(await buy(purchase('user_bob', 'order_4'))).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
    expect((await summary(code)).conversions).toBe(0)
  })

  it("takes back that conversion only: another friend's stays", async () => {
    const { recordRefunds, buy, referred, stats, summary, code } = await convertedWorld()
    await referred(code, 'user_carol')
    expect(await buy(purchase('user_carol', 'order_2'))).toEqual(['accepted'])
    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual({
      ...NOTHING,
      totalClicks: 2,
      totalConversions: 1,
      totalRewardsIssued: 2,
      reversedConversions: 1,
    })
    const after = await summary(code)
    expect(after).toMatchObject({ conversions: 1, buyers: 2, rewardsEarned: { amount: 15 } })
    expect(after.recent.map((entry) => entry.status).sort()).toEqual(['converted', 'signed_up'])
  })

  it('still reverses once the campaign is paused: the rewards were issued', async () => {
    const { call, campaignId, recordRefunds, stats } = await convertedWorld()
    const paused = await call('PATCH', `/v1/campaigns/${campaignId}`, {
      key: DEMO_KEYS.acme.skTest,
      body: { status: 'paused' },
    })
    expect(paused.status).toBe(200)
    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual(REVERSED)
  })

  it("frees the referrer's limit: the next friend's first purchase converts", async () => {
    const { recordRefunds, buy, referred, stats, code } = await convertedWorld({
      maxReferralsPerUser: 1,
    })
    await referred(code, 'user_carol')
    await referred(code, 'user_dan')
    expect(await buy(purchase('user_carol', 'order_2'))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(1) // carol: past the limit
    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await buy(purchase('user_dan', 'order_3'))).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 1, reversedConversions: 1 })
  })
})

describe('any other refund is accepted and changes nothing', () => {
  it('a later order of the buyer, not the one that converted', async () => {
    const { recordRefunds, buy, stats } = await convertedWorld()
    expect(await buy(purchase('user_bob', 'order_2'))).toEqual(['accepted'])
    expect(await recordRefunds(refund('order_2'))).toEqual(['accepted'])
    expect(await stats()).toEqual(CONVERTED)
  })

  it('an order the service never saw, or a purchase that converted nothing', async () => {
    const { recordRefunds, buy, stats } = await convertedWorld()
    expect(await buy(purchase('user_guest', 'order_guest'))).toEqual(['accepted'])
    expect(await recordRefunds(refund('order_never'), refund('order_guest'))).toEqual([
      'accepted',
      'accepted',
    ])
    expect(await stats()).toEqual(CONVERTED)
  })

  it('a refund that came before its purchase: the purchase still converts, and stays', async () => {
    const { link, referred, recordRefunds, buy, stats } = await purchaseWorld()
    await referred(await link('alice'), 'user_bob')
    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual(CONVERTED)
  })

  it('the same order id in live mode: another order', async () => {
    const { send, stats } = await convertedWorld()
    const live = await send([refund('order_1')], DEMO_KEYS.acme.skLive)
    expect(live.body.results.map((result) => result.status)).toEqual(['accepted'])
    expect(await stats()).toEqual(CONVERTED)
  })

  it("in a signup campaign: the conversion came at sign-up, with no order; a refund of the friend's purchase leaves it", async () => {
    const { link, referred, buy, recordRefunds, stats, summary } = await purchaseWorld()
    const code = await link('alice', DEMO_CAMPAIGNS.acme)
    await referred(code, 'user_bob')
    expect(await buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    const before = { stats: await stats(DEMO_CAMPAIGNS.acme), summary: await summary(code) }
    expect(before.stats).toEqual(CONVERTED)

    expect(await recordRefunds(refund('order_1'))).toEqual(['accepted'])
    expect(await stats(DEMO_CAMPAIGNS.acme)).toEqual(before.stats)
    expect(await summary(code)).toEqual(before.summary)
  })
})
