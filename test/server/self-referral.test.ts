// recordSignup and recordPurchase (referral-widget/server) against the local service when the
// user is the link's referrer (extension, CONTRACT.md "Self-referrals"): the service's verdict,
// `rejected` with `self_referral`, comes back as the result, never as an error thrown.
import { describe, expect, it } from 'vitest'
import { recordPurchase, recordSignup } from '../../src/server.ts'
import { createCampaign, DEMO_CAMPAIGNS } from '../service/helpers.ts'
import { localService } from './service-world.ts'

const SELF_REFERRAL = {
  status: 'rejected',
  error: { code: 'self_referral', message: expect.stringContaining("referrer's own") },
}

/** A click on alice's link by a friend's browser, as the widget sends it; its attribution. */
async function friendClicked(local: ReturnType<typeof localService>, campaignId: string) {
  const code = await local.linkCode(campaignId, 'alice')
  const sent = await local.send([
    { id: 'e_click_friend', type: 'click', code, visitorId: 'v_friend_0001' },
  ])
  expect(sent.body.results[0]?.status).toBe('accepted')
  return local.captured(code, 'v_friend_0001')
}

describe("the referrer's own user id, recorded by the site's backend", () => {
  it('recordSignup: rejected, self_referral; nothing converts', async () => {
    const local = localService()
    const attribution = await friendClicked(local, DEMO_CAMPAIGNS.acme)
    const result = await local.time.drive(
      recordSignup({ ...local.options, userId: 'alice', attribution }),
    )
    expect(result).toEqual({ ...SELF_REFERRAL, eventId: expect.stringMatching(/^su_/) })
    expect(await local.stats(DEMO_CAMPAIGNS.acme)).toMatchObject({
      totalClicks: 1,
      totalConversions: 0,
      selfReferrals: 1,
    })
  })

  it('recordPurchase: rejected, self_referral; nothing converts', async () => {
    const local = localService()
    const campaignId = await createCampaign(local.call, { rewardTrigger: 'purchase' })
    const attribution = await friendClicked(local, campaignId)
    const order = { orderId: 'A-1001', amount: 59.9, currency: 'EUR' }
    const result = await local.time.drive(
      recordPurchase({ ...local.options, userId: 'alice', attribution, ...order }),
    )
    expect(result).toEqual({
      ...SELF_REFERRAL,
      eventId: expect.stringMatching(/^pu_/),
      orderId: 'A-1001',
    })
    expect(await local.stats(campaignId)).toMatchObject({
      totalConversions: 0,
      totalRewardsIssued: 0,
      selfReferrals: 1,
    })
  })
})
