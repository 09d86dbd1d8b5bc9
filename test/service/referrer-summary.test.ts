// The referrer's summary extension (CONTRACT.md "The referrer's summary"): who may read a
// referrer's results, and what they show.
import { describe, expect, it } from 'vitest'
import type { Link, LinkSummary } from '../../demo/service/schemas.ts'
import { createCampaign, MINUTE, SECOND, setup } from './helpers.ts'
import {
  type Ctx,
  expectError,
  guarded,
  invalidToken,
  makeLink,
  mint,
  pkTest,
  skLive,
  skTest,
} from './user-tokens-support.ts'

const ORIGIN = 'https://shop.example'

const summaryOf = (ctx: Ctx, code: string, options: { key?: string; token?: string } = {}) =>
  ctx.call<LinkSummary>('GET', `/v1/links/${code}/summary`, {
    key: options.key ?? pkTest,
    ...(options.token === undefined ? {} : { headers: { 'Referral-User-Token': options.token } }),
  })

let eventSeq = 0
async function send(
  ctx: Ctx,
  events: ReadonlyArray<Record<string, unknown>>,
  status: 'accepted' | 'rejected' = 'accepted',
) {
  const answer = await ctx.call<{ results: { status: string }[] }>('POST', '/v1/events', {
    key: pkTest,
    body: {
      events: events.map((event) => ({
        id: `evt_${String(++eventSeq).padStart(8, '0')}`,
        ...event,
      })),
    },
  })
  expect(answer.status).toBe(200)
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => status))
}
const click = (ctx: Ctx, code: string, visitorId: string) =>
  send(ctx, [{ type: 'click', code, visitorId }])
const signup = (
  ctx: Ctx,
  code: string,
  visitorId: string,
  userId: string,
  status?: 'accepted' | 'rejected',
) => send(ctx, [{ type: 'signup', code, visitorId, userId }], status)

const SUMMARY_FIELDS = [
  'buyers',
  'campaignId',
  'clicks',
  'code',
  'conversions',
  'recent',
  'rewardsEarned',
  'signups',
]

describe('GET /v1/links/:code/summary', () => {
  it("counts clicks, signups and conversions, sums the reward of each conversion's day, and names no one referred", async () => {
    const ctx = setup()
    const campaign = await guarded(ctx, { limits: { maxReferralsPerUser: 3 } })
    const token = await mint(ctx, 'alice')
    const { code } = (await makeLink(ctx, campaign, 'alice', token)).body

    await click(ctx, code, 'visitor_bob01')
    ctx.clock.advance(MINUTE)
    await click(ctx, code, 'visitor_bob01') // the same friend twice: two clicks, one referral
    ctx.clock.advance(MINUTE)
    await click(ctx, code, 'visitor_carol1')
    ctx.clock.advance(MINUTE)
    await click(ctx, code, 'visitor_alice1') // the referrer on their own link
    ctx.clock.advance(MINUTE)
    await signup(ctx, code, 'visitor_bob01', 'user_bob')
    ctx.clock.advance(MINUTE)
    await signup(ctx, code, 'visitor_alice1', 'alice', 'rejected') // self-referral: not a friend
    const patched = await ctx.call('PATCH', `/v1/campaigns/${campaign}`, {
      key: skTest,
      body: { referrerReward: { amount: 12.5 } },
    })
    expect(patched.status).toBe(200)
    ctx.clock.advance(MINUTE)
    await signup(ctx, code, 'visitor_carol1', 'user_carol')
    ctx.clock.advance(MINUTE)
    await click(ctx, code, 'visitor_dave01')
    const lastClickAt = new Date(ctx.clock.now()).toISOString()

    const answer = await summaryOf(ctx, code, { token: await mint(ctx, 'alice') })
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual(SUMMARY_FIELDS)
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 15, 12, minutes)).toISOString()
    expect(answer.body).toEqual({
      code,
      campaignId: campaign,
      clicks: 5,
      signups: 2,
      conversions: 2,
      buyers: 0,
      rewardsEarned: { amount: 22.5, currency: 'USD' },
      recent: [
        { at: lastClickAt, status: 'clicked' },
        { at: at(6), status: 'converted' },
        { at: at(4), status: 'converted' },
        { at: at(3), status: 'clicked' },
      ],
    })
    const text = JSON.stringify(answer.body)
    for (const name of ['bob', 'carol', 'dave', 'visitor', 'user_', 'alice']) {
      expect(text).not.toContain(name)
    }
  })

  it('counts a signup that earned nothing (a limit reached) as a signup, not a conversion', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx, { limits: { maxReferralsPerUser: 1 } })
    const { code } = (await makeLink(ctx, campaign, 'alice', await mint(ctx, 'alice'))).body
    for (const friend of ['bob', 'carol']) {
      await click(ctx, code, `visitor_${friend}1`)
      await signup(ctx, code, `visitor_${friend}1`, `user_${friend}`)
    }
    const answer = await summaryOf(ctx, code, { key: skTest })
    expect(answer.body).toMatchObject({
      signups: 2,
      conversions: 1,
      rewardsEarned: { amount: 10, currency: 'USD' },
    })
    expect(answer.body.recent.map((entry) => entry.status).sort()).toEqual([
      'converted',
      'signed_up',
    ])
  })

  it('leaves out rewards earned in a currency the campaign no longer pays in', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const { code } = (await makeLink(ctx, campaign, 'alice', await mint(ctx, 'alice'))).body
    await click(ctx, code, 'visitor_bob01')
    await signup(ctx, code, 'visitor_bob01', 'user_bob')
    await ctx.call('PATCH', `/v1/campaigns/${campaign}`, {
      key: skTest,
      body: { referrerReward: { amount: 9, currency: 'EUR' } },
    })
    await click(ctx, code, 'visitor_carol1')
    await signup(ctx, code, 'visitor_carol1', 'user_carol')
    const answer = await summaryOf(ctx, code, { key: skTest })
    expect(answer.body).toMatchObject({
      conversions: 2,
      rewardsEarned: { amount: 9, currency: 'EUR' },
    })
  })

  it('lists the 10 newest referrals, newest first', async () => {
    const ctx = setup()
    const campaign = await createCampaign(ctx.call)
    const { code } = (await makeLink(ctx, campaign, 'alice')).body
    for (let i = 0; i < 12; i++) {
      ctx.clock.advance(MINUTE)
      await click(ctx, code, `visitor_n${String(i).padStart(6, '0')}`)
    }
    const answer = await summaryOf(ctx, code, { key: skTest })
    expect(answer.body.clicks).toBe(12)
    expect(answer.body.recent).toHaveLength(10)
    expect(answer.body.recent[0]?.at).toBe(new Date(ctx.clock.now()).toISOString())
    const times = answer.body.recent.map((entry) => Date.parse(entry.at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('answers the right 401 or 403 to a public key without the referrer token', async () => {
    const ctx = setup()
    const campaign = await createCampaign(ctx.call)
    const { code } = (await makeLink(ctx, campaign, 'alice')).body

    const none = expectError(
      await summaryOf(ctx, code),
      401,
      'authentication_error',
      'user_token_required',
    )
    expect(none.message).toContain('Referral-User-Token')
    expect(none.param).toBeUndefined()
    expectError(
      await summaryOf(ctx, code, { token: await mint(ctx, 'mallory') }),
      403,
      'permission_error',
      'user_token_mismatch',
    )
    invalidToken(await summaryOf(ctx, code, { token: await mint(ctx, 'alice', skLive) }))
    const short = await mint(ctx, 'alice', skTest, 1)
    ctx.clock.advance(SECOND)
    expectError(
      await summaryOf(ctx, code, { token: short }),
      401,
      'authentication_error',
      'user_token_expired',
    )
    const found = await summaryOf(ctx, code, { token: await mint(ctx, 'alice') })
    expect(found.status).toBe(200)
    expect(found.body.code).toBe(code)
  })

  it('answers 404 for a code unknown in the caller organization and mode', async () => {
    const ctx = setup()
    const token = await mint(ctx, 'alice')
    for (const code of ['Unknown123', 'no!']) {
      expectError(await summaryOf(ctx, code, { token }), 404, 'not_found_error', 'resource_missing')
    }
    const campaign = await createCampaign(ctx.call)
    const { code } = (await makeLink(ctx, campaign, 'alice')).body
    expectError(
      await summaryOf(ctx, code, { key: skLive }),
      404,
      'not_found_error',
      'resource_missing',
    )
  })

  it('is counted by the rate limit like every route', async () => {
    const ctx = setup({ pkRateLimit: 2 })
    const token = await mint(ctx, 'alice')
    const { code } = (
      await ctx.call<Link>('POST', '/v1/links', {
        key: skTest,
        body: { campaignId: await createCampaign(ctx.call), referrerId: 'alice' },
      })
    ).body
    const first = await summaryOf(ctx, code, { token })
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect((await summaryOf(ctx, code, { token })).status).toBe(200)
    const refused = await summaryOf(ctx, code, { token })
    expectError(refused, 429, 'rate_limit_error', 'rate_limited')
    expect(refused.headers.get('retry-after')).toBe('60')
  })

  it('is allowed cross-origin: the preflight allows Referral-User-Token', async () => {
    const ctx = setup()
    const answer = await ctx.call('OPTIONS', '/v1/links/abcdefgh12/summary', {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, referral-user-token',
      },
    })
    expect(answer.status).toBe(204)
    const allowed = (answer.headers.get('access-control-allow-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'referral-user-token']),
    )
  })

  it('never writes the token into the request log', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const token = await mint(ctx, 'alice')
    const { code } = (await makeLink(ctx, campaign, 'alice', token)).body
    await summaryOf(ctx, code, { token })
    const logged = JSON.stringify(ctx.service.requestLog.since(0))
    expect(logged).toContain('/summary')
    expect(logged).not.toContain(token.split('.')[2])
  })
})
