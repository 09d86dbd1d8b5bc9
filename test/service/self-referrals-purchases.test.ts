// Self-referrals in a purchase campaign (extension, CONTRACT.md "Self-referrals" and
// "Purchases"): the referrer's own browser and user id neither click, nor become a referred
// user, nor convert at a purchase; each refusal counts once in `stats.selfReferrals`.

import { describe, expect, it } from 'vitest'
import type { EventResult, Link } from '../../demo/service/schemas.ts'
import { DEMO_KEYS } from './helpers.ts'
import { eventId, NOTHING, purchase, purchaseWorld } from './purchase-world.ts'

const { pkTest, skTest } = DEMO_KEYS.acme

type World = Awaited<ReturnType<typeof purchaseWorld>>

/** alice's link in the purchase campaign, asked for by the browser `visitorId` (or by none). */
async function aliceLink(world: World, visitorId?: string) {
  const body = {
    campaignId: world.campaignId,
    referrerId: 'alice',
    ...(visitorId ? { visitorId } : {}),
  }
  const answer = await world.call<Link>('POST', '/v1/links', { key: pkTest, body })
  expect([200, 201]).toContain(answer.status)
  return answer.body.code
}

/** The one result of a batch of one event. */
async function resultOf(world: World, event: object, key: string = pkTest): Promise<EventResult> {
  const answer = await world.send([event], key)
  expect(answer.status).toBe(200)
  const [result] = answer.body.results
  if (!result) throw new Error('no result')
  return result
}

const SELF_REFERRAL = { status: 'rejected', error: { code: 'self_referral' } }

describe('self-referrals in a purchase campaign', () => {
  it("the referrer's own browser clicking: rejected, no click counted", async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world, 'visitor_alice')
    const own = { id: eventId(), type: 'click', code, visitorId: 'visitor_alice' }
    expect(await resultOf(world, own)).toMatchObject(SELF_REFERRAL)
    expect(await world.stats()).toEqual({ ...NOTHING, selfReferrals: 1 })
  })

  it('a second account in that browser: its signup and its guest purchase through the code are refused', async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world, 'visitor_alice')
    const second = {
      id: eventId(),
      type: 'signup',
      visitorId: 'visitor_alice',
      userId: 'alice2',
      code,
    }
    expect(await resultOf(world, second)).toMatchObject(SELF_REFERRAL)

    // Not a referred user: a purchase without attribution credits nobody, and is accepted.
    expect(await world.buy(purchase('alice2', 'order_1'))).toEqual(['accepted'])
    // A guest checkout carrying the browser's code and visitor: the referrer's own, refused.
    const guest = purchase('alice_guest', 'order_2', { code, visitorId: 'visitor_alice' })
    expect(await resultOf(world, guest, skTest)).toMatchObject({
      ...SELF_REFERRAL,
      error: {
        message: "A referrer's own purchase is not counted: this visitor asked for the link.",
      },
    })
    expect(await world.stats()).toEqual({ ...NOTHING, selfReferrals: 2 })
    expect(await world.summary(code)).toMatchObject({ signups: 0, buyers: 0, conversions: 0 })
  })

  it("the referrer's user id signing up on another device through a friend's click: rejected, and their purchase too", async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world, 'visitor_alice')
    await world.click(code, 'visitor_friend')
    const own = { id: eventId(), type: 'signup', visitorId: 'visitor_friend', userId: 'alice' }
    expect(await resultOf(world, own)).toMatchObject(SELF_REFERRAL)

    const attribution = { code, visitorId: 'visitor_friend' }
    const bought = purchase('alice', 'order_1', attribution)
    expect(await resultOf(world, bought, skTest)).toMatchObject({
      ...SELF_REFERRAL,
      error: {
        message: "A referrer's own purchase is not counted: userId is the link's referrer.",
      },
    })
    // Refused again when retried, counted once; a refused purchase takes no order id.
    expect(await resultOf(world, bought, skTest)).toMatchObject(SELF_REFERRAL)
    expect(await world.stats()).toEqual({ ...NOTHING, totalClicks: 1, selfReferrals: 2 })
    expect(await world.buy(purchase('alice', 'order_1'))).toEqual(['accepted'])
    expect(await world.stats()).toEqual({ ...NOTHING, totalClicks: 1, selfReferrals: 2 })
  })

  it('a guest whose click came from a browser that later asked for the link: the click taken back, the purchase refused', async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world) // made on another device
    await world.click(code, 'visitor_tablet')
    await aliceLink(world, 'visitor_tablet')
    const guest = purchase('guest_1', 'order_1', { code, visitorId: 'visitor_tablet' })
    expect(await resultOf(world, guest, skTest)).toMatchObject(SELF_REFERRAL)
    expect(await world.stats()).toEqual({ ...NOTHING, selfReferrals: 2 })
  })

  it("a friend's browser: one click, a referred signup, one conversion at the purchase, no self-referral", async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world, 'visitor_alice')
    await world.click(code, 'visitor_friend')
    await world.signup('visitor_friend', 'user_bob')
    const first = purchase('user_bob', 'order_1')
    expect(await world.buy(first)).toEqual(['accepted'])
    expect(await world.buy(first)).toEqual(['duplicate'])
    expect(await world.stats()).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })
    expect(await world.summary(code)).toMatchObject({ signups: 1, buyers: 1, conversions: 1 })
  })

  it("a referred friend's later purchases are accepted, whatever browser asks for the link after", async () => {
    const world = await purchaseWorld()
    const code = await aliceLink(world, 'visitor_alice')
    await world.click(code, 'visitor_friend')
    await world.signup('visitor_friend', 'user_bob')
    expect(await world.buy(purchase('user_bob', 'order_1'))).toEqual(['accepted'])
    await aliceLink(world, 'visitor_friend') // alice borrows bob's computer
    expect(await world.buy(purchase('user_bob', 'order_2'))).toEqual(['accepted'])
    expect(await world.stats()).toMatchObject({ totalConversions: 1, selfReferrals: 0 })
  })
})
