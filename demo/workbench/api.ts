// The demo page's calls to the local service's /demo-api routes. Campaign administration goes
// through /demo-api/admin, where the server adds the organization's secret key: no sk_ key is
// ever in this page.
import * as z from 'zod/mini'
import {
  Campaign,
  CampaignStatus,
  ErrorBody,
  Link,
  LinkSummary,
  Reward,
  RewardTrigger,
} from '../service/schemas.ts'

export type Org = 'acme' | 'globex'
export type Mode = 'test' | 'live'
export interface Scope {
  org: Org
  mode: Mode
}

export const FaultPlan = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rate-limit'), count: z.number(), retryAfterSeconds: z.number() }),
  z.object({ kind: z.literal('unavailable'), count: z.number() }),
  z.object({ kind: z.literal('slow'), count: z.number(), delayMs: z.number() }),
])
export type FaultPlan = z.infer<typeof FaultPlan>

export const LoggedRequest = z.object({
  seq: z.number(),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  key: z.string(),
  summary: z.string(),
})
export type LoggedRequest = z.infer<typeof LoggedRequest>

export const CampaignSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: CampaignStatus,
  referrerReward: Reward,
  referredReward: Reward,
  createdAt: z.string(),
})
export type CampaignSummary = z.infer<typeof CampaignSummary>

export type { Campaign, RewardTrigger }

/** The service's verdict on a purchase, as recordPurchase of the server entry gives it. */
export const PurchaseVerdict = z.object({
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  eventId: z.string(),
  orderId: z.string(),
  error: z.optional(
    z.object({ code: z.string(), message: z.string(), param: z.optional(z.string()) }),
  ),
})
export type PurchaseVerdict = z.infer<typeof PurchaseVerdict>

export interface Purchase {
  userId: string
  orderId: string
  amount: number
  currency: string
}

export class DemoApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

async function call<S extends z.ZodMiniType>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  schema: S,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<z.infer<S>> {
  const response = await fetch(path, {
    method,
    cache: 'no-store',
    headers: {
      ...headers,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const payload: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const failure = ErrorBody.safeParse(payload)
    throw new DemoApiError(
      failure.success
        ? `${response.status} ${failure.data.error.code}: ${failure.data.error.message}`
        : `The service answered ${response.status}.`,
      response.status,
    )
  }
  const parsed = schema.safeParse(payload)
  if (!parsed.success) {
    throw new DemoApiError(`Unexpected answer from ${method} ${path}.`, response.status)
  }
  return parsed.data
}

const admin = (scope: Scope, rest = '') =>
  `/demo-api/admin/${scope.org}/${scope.mode}/campaigns${rest}`

export type { LinkSummary }

export const MintedToken = z.object({
  token: z.string(),
  userId: z.string(),
  expiresAt: z.string(),
})
export type MintedToken = z.infer<typeof MintedToken>

export const demoApi = {
  clock: () => call('GET', '/demo-api/clock', z.object({ now: z.string() })),
  advanceClock: (ms: number) =>
    call('POST', '/demo-api/clock/advance', z.object({ now: z.string() }), { ms }),
  reset: () => call('POST', '/demo-api/reset', z.object({ ok: z.boolean() })),
  fault: () => call('GET', '/demo-api/faults', z.object({ fault: z.nullable(FaultPlan) })),
  setFault: (plan: FaultPlan) =>
    call('POST', '/demo-api/faults', z.object({ fault: z.nullable(FaultPlan) }), plan),
  clearFault: () => call('DELETE', '/demo-api/faults', z.object({ fault: z.null() })),
  requests: () =>
    call('GET', '/demo-api/requests?since=0', z.object({ requests: z.array(LoggedRequest) })),
  campaigns: (scope: Scope) =>
    call('GET', admin(scope), z.object({ data: z.array(CampaignSummary), total: z.number() })),
  campaign: (scope: Scope, id: string) =>
    call('GET', admin(scope, `/${encodeURIComponent(id)}`), Campaign),
  createCampaign: (scope: Scope, body: Record<string, unknown>) =>
    call('POST', admin(scope), z.object({ id: z.string(), status: z.string() }), body),
  updateCampaign: (scope: Scope, id: string, body: Record<string, unknown>) =>
    call(
      'PATCH',
      admin(scope, `/${encodeURIComponent(id)}`),
      z.object({ id: z.string(), updatedAt: z.string() }),
      body,
    ),
  /** A demo control: the interface fixes rewardTrigger at creation. */
  setTrigger: (scope: Scope, id: string, rewardTrigger: RewardTrigger) =>
    call(
      'POST',
      admin(scope, `/${encodeURIComponent(id)}/trigger`),
      z.object({ id: z.string(), rewardTrigger: RewardTrigger, updatedAt: z.string() }),
      { rewardTrigger },
    ),
  /** Recorded by the dev server as the shop's backend: recordPurchase with the secret key. */
  recordPurchase: (scope: Scope, purchase: Purchase) =>
    call('POST', `/demo-api/admin/${scope.org}/${scope.mode}/purchases`, PurchaseVerdict, purchase),
  /** A user token minted on the server with the organization's secret key. */
  mintUserToken: (scope: Scope, userId: string, expiresInSeconds: number) =>
    call('POST', `/demo-api/admin/${scope.org}/${scope.mode}/user-token`, MintedToken, {
      userId,
      expiresInSeconds,
    }),
  /**
   * The referrer's summary as a page reads it: with the public key and the user's token only
   * (their link first, which the token also unlocks when the campaign requires one).
   */
  referrerSummary: async (publicKey: string, campaignId: string, userId: string, token: string) => {
    const auth = { Authorization: `Bearer ${publicKey}` }
    const link = await call(
      'POST',
      '/v1/links',
      Link,
      { campaignId, referrerId: userId, userToken: token },
      auth,
    )
    return call(
      'GET',
      `/v1/links/${encodeURIComponent(link.code)}/summary`,
      LinkSummary,
      undefined,
      {
        ...auth,
        'Referral-User-Token': token,
      },
    )
  },
}
