// POST /v1/events: attribution (CONTRACT.md "Events"): which signup converts for which click,
// within the campaign's window on the server's clock, and the limits per user and per day.

import { describe, expect, it } from 'vitest'
import { click, makeLink, NO_ACTIVITY, send, signup, stats, track } from './events-support.ts'
import { createCampaign, DAY, HOUR, MINUTE, SECOND, setup } from './helpers.ts'

describe('attribution', () => {
  it('converts a signup of a visitor who clicked: +1 conversion, +2 rewards', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(DAY)
    await track(call, signup('visitor_one', 'user_new', { code }))

    expect(await stats(call)).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })
  })

  it('converts on the last day of the 30d window of the seeded campaign', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(30 * DAY - MINUTE)
    await track(call, signup('visitor_one', 'user_new', { code }))
    expect((await stats(call)).totalConversions).toBe(1)
  })

  it('does not convert a signup after the 30d window of the seeded campaign', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(30 * DAY + SECOND)
    const answer = await send(call, [signup('visitor_one', 'user_new', { code })])
    expect(answer.body.results[0]?.status).toBe('accepted')
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1 })
  })

  it("honours a campaign's own attributionWindow ('1d')", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    await track(call, click(code, 'visitor_late'), click(code, 'visitor_early'))

    clock.advance(23 * HOUR)
    await track(call, signup('visitor_early', 'user_early', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)

    clock.advance(2 * HOUR) // 25 hours after the clicks
    await track(call, signup('visitor_late', 'user_late', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)
  })

  it("measures the window on the server's clock: a signup's occurredAt inside the window does not help", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    const clickedAt = new Date(clock.now()).toISOString()
    await track(call, click(code, 'visitor_one', { occurredAt: clickedAt }))

    clock.advance(2 * DAY)
    await track(call, signup('visitor_one', 'user_one', { code, occurredAt: clickedAt }))
    expect((await stats(call, campaign)).totalConversions).toBe(0)
  })

  it("measures the window on the server's clock: occurredAt far outside the window does not hurt", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    const longAgo = new Date(clock.now() - 90 * DAY).toISOString()
    const farAhead = new Date(clock.now() + 90 * DAY).toISOString()
    await track(call, click(code, 'visitor_one', { occurredAt: longAgo }))

    clock.advance(HOUR)
    await track(call, signup('visitor_one', 'user_one', { code, occurredAt: farAhead }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)
  })

  it('credits a signup without code to the most recent click of that visitor', async () => {
    const { call, clock } = setup()
    const first = await createCampaign(call)
    const second = await createCampaign(call)
    const firstCode = await makeLink(call, 'alice', first)
    const secondCode = await makeLink(call, 'bob', second)
    await track(call, click(firstCode, 'visitor_one'))
    clock.advance(HOUR)
    await track(call, click(secondCode, 'visitor_one'))
    clock.advance(HOUR)

    await track(call, signup('visitor_one', 'user_one'))
    expect((await stats(call, first)).totalConversions).toBe(0)
    expect((await stats(call, second)).totalConversions).toBe(1)
  })

  it('credits a signup without code to the most recent click still inside its window', async () => {
    const { call, clock } = setup()
    const long = await createCampaign(call, { attributionWindow: '30d' })
    const short = await createCampaign(call, { attributionWindow: '1d' })
    const longCode = await makeLink(call, 'alice', long)
    const shortCode = await makeLink(call, 'bob', short)
    await track(call, click(longCode, 'visitor_one'))
    clock.advance(HOUR)
    await track(call, click(shortCode, 'visitor_one')) // the most recent click, but its window is 1d
    clock.advance(2 * DAY)

    await track(call, signup('visitor_one', 'user_one'))
    expect((await stats(call, short)).totalConversions).toBe(0)
    expect((await stats(call, long)).totalConversions).toBe(1)
  })

  it('does not credit a signup naming a code the visitor never clicked', async () => {
    const { call } = setup()
    const aliceCode = await makeLink(call, 'alice')
    const bobCode = await makeLink(call, 'bob')
    await track(call, click(aliceCode, 'visitor_one'))
    await track(call, signup('visitor_other', 'user_one', { code: bobCode }))
    expect((await stats(call)).totalConversions).toBe(0)
  })

  it('accepts a signup by a visitor who never clicked, without a conversion', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_clicked'))
    const answer = await send(call, [signup('visitor_stranger', 'user_one')])
    expect(answer.status).toBe(200)
    expect(answer.body.results[0]?.status).toBe('accepted')
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1 })
  })

  it('refuses a self-referral (userId is the referrer), but converts another user', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))

    const own = await send(call, [signup('visitor_one', 'alice', { code })])
    expect(own.body.results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'self_referral' },
    })
    expect(await stats(call)).toMatchObject({ totalConversions: 0, selfReferrals: 1 })

    await track(call, signup('visitor_one', 'carol', { code }))
    expect((await stats(call)).totalConversions).toBe(1)
  })

  it('converts the same userId once per campaign', async () => {
    const { call } = setup()
    const aliceCode = await makeLink(call, 'alice')
    const bobCode = await makeLink(call, 'bob')
    await track(call, click(aliceCode, 'visitor_one'), click(bobCode, 'visitor_two'))

    await track(call, signup('visitor_one', 'user_dave', { code: aliceCode }))
    await track(call, signup('visitor_two', 'user_dave', { code: bobCode }))
    expect(await stats(call)).toEqual({
      totalClicks: 2,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })
  })

  it('stops conversions at maxReferralsPerUser (lifetime), per referrer', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerUser: 2 } })
    const aliceCode = await makeLink(call, 'alice', campaign)
    const bobCode = await makeLink(call, 'bob', campaign)

    for (const n of [1, 2, 3]) {
      await track(call, click(aliceCode, `visitor_a${n}_xx`))
      await track(call, signup(`visitor_a${n}_xx`, `user_a${n}`, { code: aliceCode }))
      clock.advance(DAY) // lifetime: days passing does not reset it
    }
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    clock.advance(10 * DAY)
    await track(call, click(aliceCode, 'visitor_a4_xx'))
    await track(call, signup('visitor_a4_xx', 'user_a4', { code: aliceCode }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    // Another referrer has a limit of their own.
    await track(call, click(bobCode, 'visitor_b1_xx'))
    await track(call, signup('visitor_b1_xx', 'user_b1', { code: bobCode }))
    expect(await stats(call, campaign)).toMatchObject({
      totalConversions: 3,
      totalRewardsIssued: 6,
    })
  })

  it('stops conversions at maxReferralsPerDay and allows more on the next UTC day', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 2 } })
    const code = await makeLink(call, 'alice', campaign)
    clock.set(Date.UTC(2026, 0, 20, 22, 0))

    for (const n of [1, 2, 3]) {
      await track(call, click(code, `visitor_d${n}_xx`))
      await track(call, signup(`visitor_d${n}_xx`, `user_d${n}`, { code }))
    }
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    // 2.5 hours later it is a new UTC day, though fewer than 24 hours have passed.
    clock.set(Date.UTC(2026, 0, 21, 0, 30))
    await track(call, click(code, 'visitor_d4_xx'))
    await track(call, signup('visitor_d4_xx', 'user_d4', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(3)
  })

  it('counts maxReferralsPerDay per referrer', async () => {
    const { call } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 1 } })
    const aliceCode = await makeLink(call, 'alice', campaign)
    const bobCode = await makeLink(call, 'bob', campaign)
    await track(call, click(aliceCode, 'visitor_one'), click(aliceCode, 'visitor_two'))
    await track(call, click(bobCode, 'visitor_three'))

    await track(call, signup('visitor_one', 'user_one', { code: aliceCode }))
    await track(call, signup('visitor_two', 'user_two', { code: aliceCode }))
    await track(call, signup('visitor_three', 'user_three', { code: bobCode }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)
  })

  it('lets a user stopped by the daily limit convert on the next UTC day', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 1 } })
    const code = await makeLink(call, 'alice', campaign)
    await track(call, click(code, 'visitor_one'), click(code, 'visitor_two'))
    await track(call, signup('visitor_one', 'user_one', { code }))
    const refused = signup('visitor_two', 'user_two', { code })
    await track(call, refused)
    expect((await stats(call, campaign)).totalConversions).toBe(1)

    clock.set(Date.UTC(2026, 0, 16, 0, 0, 1))
    // A new signup event (the first one was consumed) of the same user, still inside the window.
    await track(call, signup('visitor_two', 'user_two', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)
  })
})
