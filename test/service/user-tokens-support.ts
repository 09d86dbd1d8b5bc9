// What the user-token tests share (CONTRACT.md "User tokens", "The referrer's summary"): tokens
// minted as a site's server would or crafted by hand, campaigns that require them, links made
// with acme's public key, and the checks of the errors they answer.
import { createHmac } from 'node:crypto'
import { expect } from 'vitest'
import type { Link } from '../../demo/service/schemas.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import {
  type Answer,
  createCampaign,
  DEMO_KEYS,
  errorOf,
  HOUR,
  SECOND,
  type setup,
} from './helpers.ts'

export const { pkTest, skTest, skLive } = DEMO_KEYS.acme

export type Ctx = ReturnType<typeof setup>

/** A token minted as a site's server would, on the service's clock. */
export const mint = (
  ctx: Ctx,
  userId: string,
  secretKey: string = skTest,
  expiresInSeconds = HOUR / SECOND,
) => signUserToken({ secretKey, userId, expiresInSeconds, now: () => ctx.clock.now() })

/** A token of any payload text, genuinely signed: for payloads signUserToken would never make. */
export function craft(payload: string, secretKey: string = skTest): string {
  const encoded = Buffer.from(payload).toString('base64url')
  const signature = createHmac('sha256', secretKey).update(`v1.${encoded}`).digest('base64url')
  return `v1.${encoded}.${signature}`
}

export const nowSeconds = (ctx: Ctx) => Math.floor(ctx.clock.now() / SECOND)

export function expectError(answer: Answer, status: number, type: string, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  const error = errorOf(answer)
  expect(error.type).toBe(type)
  expect(error.code).toBe(code)
  return error
}

export const invalidToken = (answer: Answer) =>
  expectError(answer, 401, 'authentication_error', 'user_token_invalid')

/** A campaign of acme/test that requires user tokens, with a $10 referrer reward. */
export async function guarded(ctx: Ctx, fields: Record<string, unknown> = {}) {
  return createCampaign(ctx.call, {
    requireUserToken: true,
    referrerReward: { type: 'credit', amount: 10 },
    ...fields,
  })
}

export const makeLink = (ctx: Ctx, campaignId: string, referrerId: string, userToken?: string) =>
  ctx.call<Link>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId, referrerId, ...(userToken === undefined ? {} : { userToken }) },
  })

export const storedLink = (ctx: Ctx, campaignId: string, referrerId: string) =>
  ctx.service.store.linkByReferrer({ org: 'org_acme', mode: 'test' }, campaignId, referrerId)

export function tokenPayload(ctx: Ctx, userId: string) {
  return JSON.stringify({ userId, exp: nowSeconds(ctx) + 3600 })
}
