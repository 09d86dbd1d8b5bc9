// Property-based tests of user tokens (fast-check): whatever arrives as a token, in a link's body
// or in the summary's header, the answer is the contract's (never a 500 or a stack, the token
// never repeated), a refused token changes nothing, and a token is accepted exactly when it is
// genuine: signed by the organization's secret key, of the exact payload shape, unexpired and at
// most 24 hours (and a minute) ahead. FUZZ_RUNS and FUZZ_SEED as in test/support/fuzz.ts.
import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signUserToken } from '../../src/server/user-token.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { createCampaign, DEMO_KEYS, errorOf, LEAKS, MINUTE, SECOND, setup } from './helpers.ts'

const { pkTest, skTest } = DEMO_KEYS.acme
const USER = 'user_owner'

const b64 = (text: string) => Buffer.from(text).toString('base64url')
const sign = (encoded: string, key = skTest) =>
  createHmac('sha256', key).update(`v1.${encoded}`).digest('base64url')
/** Any payload text, genuinely signed. */
const craft = (payload: string) => `v1.${b64(payload)}.${sign(b64(payload))}`

/**
 * The contract's rule, written again independently of the service: the userId of a genuine,
 * live token, or undefined.
 */
function genuineUser(token: string, nowMs: number): string | undefined {
  const parts = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!parts || token.length > 512) return undefined
  const [, payload = '', signature = ''] = parts
  if (Buffer.from(payload, 'base64url').toString('base64url') !== payload) return undefined
  if (sign(payload) !== signature) return undefined
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const { userId, exp, ...rest } = json as Record<string, unknown>
  if (Object.keys(rest).length > 0) return undefined
  if (typeof userId !== 'string' || !/^[A-Za-z0-9_.:@-]{1,128}$/.test(userId)) return undefined
  if (!Number.isSafeInteger(exp) || (exp as number) <= 0) return undefined
  const expiresAt = (exp as number) * SECOND
  if (expiresAt <= nowMs || expiresAt > nowMs + 24 * 60 * MINUTE + MINUTE) return undefined
  return userId
}

type Mutation = (genuine: string, nowSeconds: number) => string

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const tokenChar = fc.oneof(
  fc.constantFrom(...BASE64URL, '.', '=', '+', '/', ' ', '%', '"'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
)

/** Tokens near the real one, and far from it. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>((genuine) => genuine),
  fc.tuple(fc.nat(), tokenChar).map(
    ([at, char]): Mutation =>
      (genuine) => {
        const i = at % genuine.length
        return genuine.slice(0, i) + char + genuine.slice(i + 1)
      },
  ),
  fc.nat().map(
    (cut): Mutation =>
      (genuine) =>
        genuine.slice(0, cut % genuine.length),
  ),
  fc.string({ maxLength: 20 }).map(
    (tail): Mutation =>
      (genuine) =>
        genuine + tail,
  ),
  fc.string({ maxLength: 600 }).map(
    (text): Mutation =>
      () =>
        text,
  ),
  fc.tuple(fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 300 }), fc.boolean()).map(
    ([payload, padded]): Mutation =>
      () =>
        `v1.${payload}${padded ? '=' : ''}.${sign(payload)}`,
  ),
  fc.jsonValue().map(
    (value): Mutation =>
      () =>
        craft(JSON.stringify(value)),
  ),
  fc
    .record(
      {
        userId: fc.oneof(
          fc.constant(USER),
          fc.constant('someone_else'),
          fc.string({ maxLength: 140 }),
          fc.integer(),
        ),
        exp: fc.oneof(
          fc.integer({ min: -3600, max: 30 * 3600 }),
          fc.double(),
          fc.constantFrom(0, 86_460, 86_461, Number.MAX_SAFE_INTEGER),
          fc.string({ maxLength: 12 }),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map(
      (payload): Mutation =>
        (_, nowSeconds) => {
          // exp as an offset from now when it is a small integer, so that all sides of 24 h show.
          const exp =
            typeof payload.exp === 'number' && Math.abs(payload.exp) <= 30 * 3600
              ? nowSeconds + payload.exp
              : payload.exp
          return craft(JSON.stringify({ ...payload, ...(exp === undefined ? {} : { exp }) }))
        },
    ),
)

/** A header value carries visible ASCII only (a Headers object refuses the rest). */
const asHeader = (token: string) => token.replace(/[^\x21-\x7e]/g, '_')

describe('fuzzed user tokens', () => {
  it(
    'get the contract’s answer, change nothing when refused, and pass exactly when genuine',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          mutation,
          fc.constantFrom('body', 'header'),
          fc.nat(48 * 3600),
          async (mutate, where, age) => {
            const ctx = setup({ pkRateLimit: 1e9 })
            const campaign = await createCampaign(ctx.call, { requireUserToken: true })
            const link = await ctx.call<{ code: string }>('POST', '/v1/links', {
              key: skTest,
              body: { campaignId: await createCampaign(ctx.call), referrerId: USER },
            })
            const genuine = await signUserToken({
              secretKey: skTest,
              userId: USER,
              expiresInSeconds: 86_400,
              now: () => ctx.clock.now(),
            })
            // Time passes after minting: some tokens have expired by the time they arrive.
            const nowSeconds = Math.floor(ctx.clock.now() / SECOND)
            const raw = mutate(genuine, nowSeconds)
            ctx.clock.advance(age * SECOND)
            const token = where === 'header' ? asHeader(raw).trim() : raw

            const answer =
              where === 'body'
                ? await ctx.call('POST', '/v1/links', {
                    key: pkTest,
                    body: { campaignId: campaign, referrerId: USER, userToken: token },
                  })
                : await ctx.call('GET', `/v1/links/${link.body.code}/summary`, {
                    key: pkTest,
                    headers: { 'Referral-User-Token': token },
                  })

            const text = JSON.stringify(answer.body)
            for (const leak of LEAKS) expect(text).not.toMatch(leak)
            const user = genuineUser(token, ctx.clock.now())
            if (token === '' && where === 'header') {
              expect(errorOf(answer).code).toBe('user_token_required')
            } else if (user === USER) {
              expect(answer.status, text).toBe(where === 'body' ? 201 : 200)
            } else {
              expect([401, 403], text).toContain(answer.status)
              const error = errorOf(answer)
              expect(error.type).toBe(
                answer.status === 401 ? 'authentication_error' : 'permission_error',
              )
              expect(['user_token_invalid', 'user_token_expired', 'user_token_mismatch']).toContain(
                error.code,
              )
              if (user !== undefined) expect(error.code).toBe('user_token_mismatch')
              if (token.length >= 8) expect(error.message).not.toContain(token)
              const scope = { org: 'org_acme', mode: 'test' as const }
              expect(ctx.service.store.linkByReferrer(scope, campaign, USER)).toBeUndefined()
            }
          },
        ),
        fuzzOptions,
      )
    },
    fuzzTimeout(15),
  )
})
