// The user-token extension (CONTRACT.md "User tokens"): who may make a link for a user when a
// campaign asks for proof.
import { describe, expect, it } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import { createCampaign, DAY, DEMO_KEYS, MINUTE, PUBLIC_FIELDS, SECOND, setup } from './helpers.ts'
import {
  craft,
  expectError,
  guarded,
  invalidToken,
  makeLink,
  mint,
  nowSeconds,
  pkTest,
  skLive,
  skTest,
  storedLink,
  tokenPayload,
} from './user-tokens-support.ts'

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
