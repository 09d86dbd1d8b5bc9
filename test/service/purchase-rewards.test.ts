// What a purchase earns (extension, CONTRACT.md "Purchases"): in a purchase campaign the sign-up
// is a referral that issues nothing and the referred user's first purchase is the conversion;
// limits apply there; a signup campaign behaves as before, purchases or not.

import { describe, expect, it } from 'vitest'
import { DAY, DEMO_CAMPAIGNS } from './helpers.ts'
import { NOTHING, purchase, purchaseWorld } from './purchase-world.ts'

describe('in a purchase campaign', () => {
  it('a referred sign-up is a friend who joined, and issues nothing', async () => {
    const { link, referred, stats, summary } = await purchaseWorld()
    const code = await link('alice')
    await referred(code, 'user_bob')
    expect(await stats()).toEqual({ ...NOTHING, totalClicks: 1 })
    expect(await summary(code)).toMatchObject({
      signups: 1,
      conversions: 0,
      buyers: 0,
      rewardsEarned: { amount: 0, currency: 'EUR' },
      recent: [{ status: 'signed_up' }],
    })
  })

  it("the referred user's first purchase converts: one conversion, two rewards; the second issues nothing", async () => {
    const { link, referred, buy, stats, summary } = await purchaseWorld()
    const code = await link('alice')
    await referred(code, 'user_bob')

    expect(await buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })
    expect(await buy(purchase('user_bob', 'order_2'))).toEqual(['accepted'])
    expect(await stats()).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })
    expect(await summary(code)).toMatchObject({
      signups: 1,
      conversions: 1,
      buyers: 1,
      rewardsEarned: { amount: 15, currency: 'EUR' },
      recent: [{ status: 'converted' }],
    })
  })

  it("is credited to the sign-up's referrer, whatever code the purchase carries later", async () => {
    const { link, referred, click, buy, summary } = await purchaseWorld()
    const alice = await link('alice')
    const bob = await link('bob')
    await referred(alice, 'user_carol')
    await click(bob, 'visitor_user_carol') // later, through another link
    const attribution = { code: bob, visitorId: 'visitor_user_carol' }
    expect(await buy(purchase('user_carol', 'order_1', attribution))).toEqual(['accepted'])
    expect((await summary(alice)).conversions).toBe(1)
    expect((await summary(bob)).conversions).toBe(0)
  })

  it('is credited to the sign-up referral even when the purchase carries a code of a signup campaign', async () => {
    const { link, referred, click, buy, stats, summary } = await purchaseWorld()
    const alice = await link('alice')
    await referred(alice, 'user_dan')
    const other = await link('bob', DEMO_CAMPAIGNS.acme) // a sign-up campaign's link, later
    await click(other, 'visitor_user_dan')
    const attribution = { code: other, visitorId: 'visitor_user_dan' }
    expect(await buy(purchase('user_dan', 'order_1', attribution))).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect((await summary(alice)).buyers).toBe(1)
    expect(await buy(purchase('user_dan', 'order_2'))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(1)
  })

  it("an existing customer's click earns nobody a reward: a click credits only the buyer's first purchase", async () => {
    const { link, click, buy, stats } = await purchaseWorld()
    expect(await buy(purchase('user_carol', 'order_1'))).toEqual(['accepted'])
    const code = await link('alice')
    await click(code, 'visitor_carol')
    const attribution = { code, visitorId: 'visitor_carol' }
    expect(await buy(purchase('user_carol', 'order_2', attribution))).toEqual(['accepted'])
    expect(await buy(purchase('user_carol', 'order_3'))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(0)
  })

  it('a purchase before any sign-up, without attribution: accepted, nothing issued; the first after a referred sign-up converts', async () => {
    const { link, referred, buy, stats } = await purchaseWorld()
    const code = await link('alice')
    expect(await buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    expect(await stats()).toEqual(NOTHING)

    await referred(code, 'user_bob')
    expect(await buy(purchase('user_bob', 'order_2'))).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  })

  it('a purchase with code and visitorId, without a sign-up (a guest checkout), converts through that click', async () => {
    const { link, click, buy, stats, summary } = await purchaseWorld()
    const code = await link('alice')
    await click(code, 'visitor_guest')
    const attribution = { code, visitorId: 'visitor_guest' }
    expect(await buy(purchase('guest_1', 'order_1', attribution))).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(await summary(code)).toMatchObject({ signups: 0, buyers: 1, conversions: 1 })
  })

  it('a click outside the attribution window credits nothing', async () => {
    const { link, click, buy, stats, clock } = await purchaseWorld()
    const code = await link('alice')
    await click(code, 'visitor_guest')
    clock.advance(31 * DAY)
    const attribution = { code, visitorId: 'visitor_guest' }
    expect(await buy(purchase('guest_1', 'order_1', attribution))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(0)
  })

  it('the referrer buying through their own link earns nothing: rejected, self_referral', async () => {
    const { link, click, buy, stats } = await purchaseWorld()
    const code = await link('alice')
    await click(code, 'visitor_alice')
    const attribution = { code, visitorId: 'visitor_alice' }
    expect(await buy(purchase('alice', 'order_1', attribution))).toEqual(['rejected'])
    expect(await stats()).toMatchObject({ totalConversions: 0, selfReferrals: 1 })
  })

  it('a paused campaign credits no purchase', async () => {
    const { call, campaignId, link, referred, buy, stats } = await purchaseWorld()
    await referred(await link('alice'), 'user_bob')
    const paused = await call('PATCH', `/v1/campaigns/${campaignId}`, {
      key: 'sk_test_acme',
      body: { status: 'paused' },
    })
    expect(paused.status).toBe(200)
    expect(await buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(0)
  })
})

describe('the limits apply at the purchase', () => {
  it('maxReferralsPerUser: sign-ups go on counting; a first purchase past the limit converts nothing', async () => {
    const { link, referred, buy, stats, summary } = await purchaseWorld({ maxReferralsPerUser: 1 })
    const code = await link('alice')
    await referred(code, 'user_bob')
    await referred(code, 'user_carol') // no limit at the sign-up: nothing is issued there
    expect(await buy(purchase('user_bob', 'order_1'), purchase('user_carol', 'order_2'))).toEqual([
      'accepted',
      'accepted',
    ])
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(await summary(code)).toMatchObject({ signups: 2, buyers: 2, conversions: 1 })
    // Only the first purchase could convert: a later one does not make up for it.
    expect(await buy(purchase('user_carol', 'order_3'))).toEqual(['accepted'])
    expect((await stats()).totalConversions).toBe(1)
  })

  it('maxReferralsPerDay: counted on the UTC day of the purchase, not of the sign-up', async () => {
    const { link, referred, buy, stats, clock } = await purchaseWorld({ maxReferralsPerDay: 1 })
    clock.set(Date.UTC(2026, 0, 20, 10))
    const code = await link('alice')
    for (const user of ['user_bob', 'user_carol', 'user_dave']) await referred(code, user)
    clock.set(Date.UTC(2026, 0, 21, 9))
    await buy(purchase('user_bob', 'order_1'), purchase('user_carol', 'order_2'))
    expect((await stats()).totalConversions).toBe(1)
    clock.set(Date.UTC(2026, 0, 22, 0, 0, 1))
    await buy(purchase('user_dave', 'order_3'))
    expect((await stats()).totalConversions).toBe(2)
  })
})

describe('a signup campaign', () => {
  it('converts at the sign-up as before, and takes no notice of purchases', async () => {
    const { link, referred, click, buy, stats, summary } = await purchaseWorld()
    const code = await link('alice', DEMO_CAMPAIGNS.acme)
    await referred(code, 'user_bob')
    const converted = await stats(DEMO_CAMPAIGNS.acme)
    expect(converted).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })

    await click(code, 'visitor_guest')
    const attribution = { code, visitorId: 'visitor_guest' }
    expect(
      await buy(
        purchase('user_bob', 'order_1'),
        purchase('user_bob', 'order_2', attribution),
        purchase('guest_1', 'order_3', attribution),
      ),
    ).toEqual(['accepted', 'accepted', 'accepted'])
    expect(await stats(DEMO_CAMPAIGNS.acme)).toEqual({ ...converted, totalClicks: 2 })
    expect(await summary(code)).toMatchObject({ signups: 1, conversions: 1, buyers: 0 })
  })
})
