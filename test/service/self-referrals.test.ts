// Self-referrals in a signup campaign (extension, CONTRACT.md "Self-referrals"): the referrer's
// own browser (a visitor that asked for the link) and the referrer's own user id earn nothing
// through the link; each refusal is `rejected` with `self_referral` and counts once in
// `stats.selfReferrals`. A friend's browser is unchanged.

import { describe, expect, it } from 'vitest'
import type { Campaign, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { click, NO_ACTIVITY, send, signup, stats, track } from './events-support.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, PUBLIC_FIELDS, setup } from './helpers.ts'

const { pkTest, skTest } = DEMO_KEYS.acme
const ACME = DEMO_CAMPAIGNS.acme

type Call = ReturnType<typeof setup>['call']

/** alice's link, asked for by the browser `visitorId` as the widget asks (or by none). */
async function aliceLink(call: Call, visitorId?: string) {
  const body = { campaignId: ACME, referrerId: 'alice', ...(visitorId ? { visitorId } : {}) }
  const answer = await call<Link>('POST', '/v1/links', { key: pkTest, body })
  expect([200, 201]).toContain(answer.status)
  return answer.body.code
}

/** The one result of a batch of one event. */
async function resultOf(call: Call, event: object, key: string = pkTest) {
  const answer = await send(call, [event], key)
  expect(answer.status).toBe(200)
  return answer.body.results[0]
}

async function summary(call: Call, code: string) {
  const answer = await call<LinkSummary>('GET', `/v1/links/${code}/summary`, { key: skTest })
  expect(answer.status).toBe(200)
  return answer.body
}

const selfReferral = (message: RegExp) => ({
  status: 'rejected',
  error: { code: 'self_referral', message: expect.stringMatching(message) },
})

describe('self-referrals in a signup campaign', () => {
  it.each([
    ['a public key', pkTest],
    ['a secret key', skTest],
  ])("the referrer's own browser clicking (%s): rejected, no click counted", async (_, key) => {
    const { call } = setup()
    const code = await aliceLink(call, 'visitor_alice')
    const own = click(code, 'visitor_alice')

    expect(await resultOf(call, own, key)).toEqual({
      id: own.id,
      ...selfReferral(/^A referrer's own click is not counted: this visitor asked for the link\.$/),
    })
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, selfReferrals: 1 })
    expect(await summary(call, code)).toMatchObject({ clicks: 0, recent: [] })

    // Sent again (a retry): refused again, counted once.
    expect(await resultOf(call, own, key)).toMatchObject({ status: 'rejected' })
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, selfReferrals: 1 })
  })

  it('a second account signed up in that browser through the code: rejected, nothing recorded', async () => {
    const { call } = setup()
    const code = await aliceLink(call, 'visitor_alice')
    await resultOf(call, click(code, 'visitor_alice'))
    const second = signup('visitor_alice', 'alice_second', { code })

    expect(await resultOf(call, second)).toEqual({
      id: second.id,
      ...selfReferral(
        /^A referrer's own signup is not counted: this visitor asked for the link\.$/,
      ),
    })
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, selfReferrals: 2 })
    expect(await summary(call, code)).toMatchObject({ signups: 0, conversions: 0 })
  })

  it.each([
    ['the link request first', 'link'],
    ['the click first', 'click'],
  ])(
    "the referrer's own browser, %s: one verdict, the click refused, nothing credited",
    async (_, first) => {
      const { call } = setup()
      const code = await aliceLink(call) // made on another device
      const own = click(code, 'visitor_tablet')
      // alice opens her panel on the tablet, and arrives there through her own link: the two
      // requests reach the service in either order.
      if (first === 'link') await aliceLink(call, 'visitor_tablet')
      const answered = await resultOf(call, own)
      if (first === 'click') await aliceLink(call, 'visitor_tablet')

      expect(answered).toMatchObject({ status: first === 'link' ? 'rejected' : 'accepted' })
      expect(await stats(call)).toEqual({ ...NO_ACTIVITY, selfReferrals: 1 })
      expect(await summary(call, code)).toMatchObject({ clicks: 0, recent: [] })
      // A retry of the click says so; a sign-up with the code, or crediting the visitor's last
      // click, earns nothing.
      expect(await resultOf(call, own)).toEqual({
        id: own.id,
        ...selfReferral(
          /^A referrer's own click is not counted: this visitor asked for the link\.$/,
        ),
      })
      expect(
        await resultOf(call, signup('visitor_tablet', 'user_mallory', { code })),
      ).toMatchObject(selfReferral(/this visitor asked/))
      expect(await resultOf(call, signup('visitor_tablet', 'user_trent'))).toMatchObject({
        status: 'accepted',
      })
      expect(await stats(call)).toEqual({ ...NO_ACTIVITY, selfReferrals: 2 })
    },
  )

  it("a click taken back leaves the visitor's earlier click on a friend's link to credit", async () => {
    const { call } = setup()
    const bob = (
      await call<Link>('POST', '/v1/links', {
        key: pkTest,
        body: { campaignId: ACME, referrerId: 'bob' },
      })
    ).body.code
    const alice = await aliceLink(call)
    await track(call, click(bob, 'visitor_tablet'), click(alice, 'visitor_tablet'))
    await aliceLink(call, 'visitor_tablet')

    expect(await resultOf(call, signup('visitor_tablet', 'user_mallory'))).toMatchObject({
      status: 'accepted',
    })
    expect(await stats(call)).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 1,
      reversedConversions: 0,
    })
    expect(await summary(call, bob)).toMatchObject({ clicks: 1, conversions: 1 })
  })

  it("the referrer's user id signing up on another device through a friend's click: rejected", async () => {
    const { call } = setup()
    const code = await aliceLink(call, 'visitor_alice')
    await track(call, click(code, 'visitor_friend'))
    const own = signup('visitor_friend', 'alice')

    expect(await resultOf(call, own)).toEqual({
      id: own.id,
      ...selfReferral(/^A referrer's own signup is not counted: userId is the link's referrer\.$/),
    })
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1, selfReferrals: 1 })
    expect(await summary(call, code)).toMatchObject({ clicks: 1, signups: 0, conversions: 0 })
  })

  it("a friend's browser: one click, one conversion, no self-referral; a retry is duplicate", async () => {
    const { call } = setup()
    const code = await aliceLink(call, 'visitor_alice')
    const friendClick = click(code, 'visitor_friend')
    const friendSignup = signup('visitor_friend', 'user_bob')
    await track(call, friendClick, friendSignup)

    const converted = { ...NO_ACTIVITY, totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }
    expect(await stats(call)).toEqual({ ...converted, selfReferrals: 0 })
    const retry = await send(call, [friendClick, friendSignup])
    expect(retry.body.results.map((result) => result.status)).toEqual(['duplicate', 'duplicate'])
    expect(await stats(call)).toEqual({ ...converted, selfReferrals: 0 })
  })

  it('a signup crediting nothing is accepted as before, whoever signs up', async () => {
    const { call } = setup()
    await aliceLink(call, 'visitor_alice')
    // No click to credit and no code: not a referral at all, so not a self-referral either.
    expect(await resultOf(call, signup('visitor_alice', 'alice'))).toMatchObject({
      status: 'accepted',
    })
    expect(await stats(call)).toEqual(NO_ACTIVITY)
  })
})

describe('stats.selfReferrals', () => {
  it('starts at 0 in every campaign, the seeded ones included', async () => {
    const { call } = setup()
    expect(await stats(call)).toEqual(NO_ACTIVITY)
    const globex = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.globex}`, {
      key: DEMO_KEYS.globex.skTest,
    })
    expect(globex.body.stats.selfReferrals).toBe(0)
  })

  it("is the secret key's alone: a public key's campaign answers are unchanged", async () => {
    const { call } = setup()
    const code = await aliceLink(call, 'visitor_alice')
    await resultOf(call, click(code, 'visitor_alice'))

    const detail = await call<Record<string, unknown>>('GET', `/v1/campaigns/${ACME}`, {
      key: pkTest,
    })
    expect(Object.keys(detail.body).sort()).toEqual(PUBLIC_FIELDS)
    const list = await call<{ data: Array<Record<string, unknown>> }>('GET', '/v1/campaigns', {
      key: pkTest,
    })
    for (const campaign of list.body.data) {
      expect(Object.keys(campaign).sort()).toEqual(PUBLIC_FIELDS)
    }
    const secretList = await call<{ data: Array<Record<string, unknown>> }>(
      'GET',
      '/v1/campaigns',
      { key: skTest },
    )
    expect(secretList.body.data.every((campaign) => !('stats' in campaign))).toBe(true)
    expect(await stats(call)).toMatchObject({ selfReferrals: 1 })
  })
})
