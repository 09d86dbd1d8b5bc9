// The user-token extension (CONTRACT.md "User tokens", "The referrer's summary"): who may make a
// link for a user when a campaign asks for proof, and who may read a referrer's results.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Campaign, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import {
  type Answer,
  createCampaign,
  DAY,
  DEMO_KEYS,
  errorOf,
  HOUR,
  MINUTE,
  PUBLIC_FIELDS,
  SECOND,
  setup,
} from './helpers.ts'

const { pkTest, skTest, skLive } = DEMO_KEYS.acme
const ORIGIN = 'https://shop.example'

type Ctx = ReturnType<typeof setup>

/** A token minted as a site's server would, on the service's clock. */
const mint = (
  ctx: Ctx,
  userId: string,
  secretKey: string = skTest,
  expiresInSeconds = HOUR / SECOND,
) => signUserToken({ secretKey, userId, expiresInSeconds, now: () => ctx.clock.now() })

/** A token of any payload text, genuinely signed: for payloads signUserToken would never make. */
function craft(payload: string, secretKey: string = skTest): string {
  const encoded = Buffer.from(payload).toString('base64url')
  const signature = createHmac('sha256', secretKey).update(`v1.${encoded}`).digest('base64url')
  return `v1.${encoded}.${signature}`
}

const nowSeconds = (ctx: Ctx) => Math.floor(ctx.clock.now() / SECOND)

function expectError(answer: Answer, status: number, type: string, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  const error = errorOf(answer)
  expect(error.type).toBe(type)
  expect(error.code).toBe(code)
  return error
}

const invalidToken = (answer: Answer) =>
  expectError(answer, 401, 'authentication_error', 'user_token_invalid')

/** A campaign of acme/test that requires user tokens, with a $10 referrer reward. */
async function guarded(ctx: Ctx, fields: Record<string, unknown> = {}) {
  return createCampaign(ctx.call, {
    requireUserToken: true,
    referrerReward: { type: 'credit', amount: 10 },
    ...fields,
  })
}

const makeLink = (ctx: Ctx, campaignId: string, referrerId: string, userToken?: string) =>
  ctx.call<Link>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId, referrerId, ...(userToken === undefined ? {} : { userToken }) },
  })

const storedLink = (ctx: Ctx, campaignId: string, referrerId: string) =>
  ctx.service.store.linkByReferrer({ org: 'org_acme', mode: 'test' }, campaignId, referrerId)

describe('requireUserToken on a campaign', () => {
  it('defaults to false, shows in the detail and never in the public view', async () => {
    const ctx = setup()
    const id = await createCampaign(ctx.call)
    const detail = await ctx.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: skTest })
    expect(detail.body.requireUserToken).toBe(false)

    await ctx.call('PATCH', `/v1/campaigns/${id}`, {
      key: skTest,
      body: { requireUserToken: true },
    })
    const seenByPage = await ctx.call<object>('GET', `/v1/campaigns/${id}`, { key: pkTest })
    expect(Object.keys(seenByPage.body).sort()).toEqual(PUBLIC_FIELDS)
  })

  it('is set on create and changed by a patch, which answers the changed field', async () => {
    const ctx = setup()
    const id = await guarded(ctx)
    const shown = await ctx.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: skTest })
    expect(shown.body.requireUserToken).toBe(true)

    const patched = await ctx.call('PATCH', `/v1/campaigns/${id}`, {
      key: skTest,
      body: { requireUserToken: false },
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ id, requireUserToken: false })
    const after = await ctx.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: skTest })
    expect(after.body.requireUserToken).toBe(false)
  })

  it.each([['yes'], [1], [null]])('refuses %j with 400 parameter_invalid', async (value) => {
    const ctx = setup()
    const made = await ctx.call('POST', '/v1/campaigns', {
      key: skTest,
      body: {
        name: 'x',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 1 },
        referredReward: { type: 'credit', amount: 1 },
        requireUserToken: value,
      },
    })
    const error = expectError(made, 400, 'invalid_request_error', 'parameter_invalid')
    expect(error.param).toBe('requireUserToken')
  })
})

describe('POST /v1/links on a campaign that requires a user token', () => {
  it('refuses a public key without a token: 401 user_token_required, and makes no link', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const answer = await makeLink(ctx, campaign, 'alice')
    const error = expectError(answer, 401, 'authentication_error', 'user_token_required')
    expect(error.param).toBe('userToken')
    expect(error.message).toContain('signUserToken')
    expect(storedLink(ctx, campaign, 'alice')).toBeUndefined()
  })

  it('makes the link with the referrer token from signUserToken, and gives the same one again', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const token = await mint(ctx, 'alice')
    const first = await makeLink(ctx, campaign, 'alice', token)
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ campaignId: campaign, referrerId: 'alice' })
    expect(Object.keys(first.body)).not.toContain('userToken')
    const again = await makeLink(ctx, campaign, 'alice', token)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    // Even the existing link is not handed out without proof.
    expectError(
      await makeLink(ctx, campaign, 'alice'),
      401,
      'authentication_error',
      'user_token_required',
    )
  })

  it('needs no token with a secret key', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const answer = await ctx.call('POST', '/v1/links', {
      key: skTest,
      body: { campaignId: campaign, referrerId: 'alice' },
    })
    expect(answer.status).toBe(201)
  })

  it("refuses another user's token: 403 user_token_mismatch, and makes no link", async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const answer = await makeLink(ctx, campaign, 'alice', await mint(ctx, 'mallory'))
    const error = expectError(answer, 403, 'permission_error', 'user_token_mismatch')
    expect(error.param).toBe('userToken')
    expect(storedLink(ctx, campaign, 'alice')).toBeUndefined()
  })

  it('refuses a forged signature and a payload changed after signing', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    invalidToken(
      await makeLink(ctx, campaign, 'alice', await mint(ctx, 'alice', 'sk_test_guessed')),
    )

    const [, payload, signature] = (await mint(ctx, 'mallory')).split('.')
    const text = Buffer.from(payload ?? '', 'base64url')
      .toString()
      .replace('mallory', 'alice')
    const changed = `v1.${Buffer.from(text).toString('base64url')}.${signature}`
    invalidToken(await makeLink(ctx, campaign, 'alice', changed))
    expect(storedLink(ctx, campaign, 'alice')).toBeUndefined()
  })

  it.each([
    ['another organization', DEMO_KEYS.globex.skTest],
    ['another mode', skLive],
    ['the organization, through a public key', pkTest],
    ['a key rolled 25 hours before the service started', DEMO_KEYS.acmeRolled],
  ])('refuses a token signed with the key of %s', async (_, key) => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    invalidToken(await makeLink(ctx, campaign, 'alice', craft(tokenPayload(ctx, 'alice'), key)))
  })

  it('refuses an expired token with 401 user_token_expired, up to the second', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const token = await mint(ctx, 'alice', skTest, 60)
    ctx.clock.advance(59 * SECOND)
    expect((await makeLink(ctx, campaign, 'alice', token)).status).toBe(201)
    ctx.clock.advance(SECOND)
    const error = expectError(
      await makeLink(ctx, campaign, 'alice', token),
      401,
      'authentication_error',
      'user_token_expired',
    )
    expect(error.message).toContain(new Date(ctx.clock.now()).toISOString())
  })

  it('accepts a rolled key during its 24 hours, and refuses it after', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const fresh = ctx.service.rollKey(skTest)

    ctx.clock.advance(DAY - MINUTE)
    expect((await makeLink(ctx, campaign, 'alice', await mint(ctx, 'alice'))).status).toBe(201)
    expect((await makeLink(ctx, campaign, 'bob', await mint(ctx, 'bob', fresh))).status).toBe(201)

    ctx.clock.advance(MINUTE)
    invalidToken(await makeLink(ctx, campaign, 'carol', await mint(ctx, 'carol')))
    expect((await makeLink(ctx, campaign, 'carol', await mint(ctx, 'carol', fresh))).status).toBe(
      201,
    )
  })

  it('refuses an exp more than 24 hours (and a minute of clock skew) ahead', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const limit = nowSeconds(ctx) + DAY / SECOND + MINUTE / SECOND
    const tooFar = craft(JSON.stringify({ userId: 'alice', exp: limit + 1 }))
    const error = invalidToken(await makeLink(ctx, campaign, 'alice', tooFar))
    expect(error.message).toContain('24 hours')
    const atLimit = craft(JSON.stringify({ userId: 'alice', exp: limit }))
    expect((await makeLink(ctx, campaign, 'alice', atLimit)).status).toBe(201)
  })

  it.each([
    ['an empty string', () => ''],
    ['another version', (t: string) => t.replace(/^v1/, 'v2')],
    ['padding', (t: string) => `${t}=`],
    ['a standard base64 character', (t: string) => t.replace(/\.(.)/, '.+')],
    ['a missing part', (t: string) => t.split('.').slice(0, 2).join('.')],
    ['a short signature', (t: string) => t.slice(0, -1)],
    [
      'a non-canonical last character',
      (t: string) => t.replace(/.$/, (c) => (c === 'B' ? 'C' : 'B')),
    ],
    ['more than 512 characters', () => `v1.${'A'.repeat(520)}.${'A'.repeat(43)}`],
    ['whitespace around it', (t: string) => ` ${t}`],
  ])('refuses a token with %s as user_token_invalid', async (_, change) => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const token = change(await mint(ctx, 'alice'))
    const error = invalidToken(await makeLink(ctx, campaign, 'alice', token))
    if (token.length > 8) expect(error.message).not.toContain(token.slice(3, 20))
  })

  it.each([
    ['not JSON', () => 'userId=alice'],
    ['an array', () => '["alice", 1]'],
    ['an extra field', (exp: number) => JSON.stringify({ userId: 'alice', exp, admin: true })],
    ['no exp', () => JSON.stringify({ userId: 'alice' })],
    ['exp as a string', (exp: number) => JSON.stringify({ userId: 'alice', exp: String(exp) })],
    ['exp with a fraction', (exp: number) => JSON.stringify({ userId: 'alice', exp: exp + 0.5 })],
    ['exp in milliseconds', (exp: number) => JSON.stringify({ userId: 'alice', exp: exp * 1000 })],
    ['a userId with a space', (exp: number) => JSON.stringify({ userId: 'ali ce', exp })],
    [
      'a userId of 129 characters',
      (exp: number) => JSON.stringify({ userId: 'a'.repeat(129), exp }),
    ],
  ])('refuses a genuinely signed payload with %s as user_token_invalid', async (_, payload) => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const token = craft(payload(nowSeconds(ctx) + 3600))
    invalidToken(await makeLink(ctx, campaign, 'alice', token))
  })

  it('refuses a userToken that is not a string with 400 parameter_invalid', async () => {
    const ctx = setup()
    const campaign = await guarded(ctx)
    const answer = await ctx.call('POST', '/v1/links', {
      key: pkTest,
      body: { campaignId: campaign, referrerId: 'alice', userToken: 42 },
    })
    const error = expectError(answer, 400, 'invalid_request_error', 'parameter_invalid')
    expect(error.param).toBe('userToken')
  })
})

describe('POST /v1/links with a token on a campaign that does not require one', () => {
  it('accepts a valid token, and still checks every token sent', async () => {
    const ctx = setup()
    const campaign = await createCampaign(ctx.call)
    expect((await makeLink(ctx, campaign, 'alice', await mint(ctx, 'alice'))).status).toBe(201)
    expect((await makeLink(ctx, campaign, 'bob')).status).toBe(201)
    expectError(
      await makeLink(ctx, campaign, 'carol', await mint(ctx, 'mallory')),
      403,
      'permission_error',
      'user_token_mismatch',
    )
    invalidToken(await makeLink(ctx, campaign, 'carol', 'v1.bm9wZQ.nope'))
    expect(storedLink(ctx, campaign, 'carol')).toBeUndefined()
  })
})

function tokenPayload(ctx: Ctx, userId: string) {
  return JSON.stringify({ userId, exp: nowSeconds(ctx) + 3600 })
}

// --- The referrer's summary -------------------------------------------------------------------

const summaryOf = (ctx: Ctx, code: string, options: { key?: string; token?: string } = {}) =>
  ctx.call<LinkSummary>('GET', `/v1/links/${code}/summary`, {
    key: options.key ?? pkTest,
    ...(options.token === undefined ? {} : { headers: { 'Referral-User-Token': options.token } }),
  })

let eventSeq = 0
async function send(ctx: Ctx, events: ReadonlyArray<Record<string, unknown>>) {
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
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
}
const click = (ctx: Ctx, code: string, visitorId: string) =>
  send(ctx, [{ type: 'click', code, visitorId }])
const signup = (ctx: Ctx, code: string, visitorId: string, userId: string) =>
  send(ctx, [{ type: 'signup', code, visitorId, userId }])

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
    await signup(ctx, code, 'visitor_alice1', 'alice') // self-referral: not a friend joining
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
