// Demo-only controls for the QA page and tests: not part of the /v1 interface. The admin
// routes act with the organization's secret key on the server; the browser never sees it.
import { type Context, Hono } from 'hono'
import * as z from 'zod/mini'
import { signUserToken } from '../../src/server/user-token.ts'
import { type Clock, iso } from './clock.ts'
import { notFound } from './errors.ts'
import type { FaultPlan, Faults } from './faults.ts'
import type { AppEnv } from './http.ts'
import { jsonBody, requireObject } from './http.ts'
import type { RequestLog } from './request-log.ts'
import { MAX_USER_TOKEN_LIFETIME_SECONDS, REFERRER_ID_PATTERN, RewardTrigger } from './schemas.ts'
import { DemoPurchase, recordSitePurchase } from './site-backend.ts'
import type { Store } from './store.ts'
import { parseOrThrow } from './validate.ts'

interface Controlled {
  app: {
    request(path: string, init: RequestInit, env: AppEnv['Bindings']): Response | Promise<Response>
  }
  store: Store
  clock: Clock
  faults: Faults
  requestLog: RequestLog
  rollKey(key: string): string
  reset(): void
}

const DAY_MS = 24 * 3600 * 1000
const Advance = z.strictObject({ ms: z.number().check(z.gte(0), z.lte(400 * DAY_MS)) })
const Roll = z.strictObject({
  key: z.string().check(z.regex(/^pk_(test|live)_[A-Za-z0-9]{4,64}$/)),
})
const count = z.int().check(z.gte(1), z.lte(100))
const Fault = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('rate-limit'),
    count,
    retryAfterSeconds: z.int().check(z.gte(1), z.lte(3600)),
  }),
  z.strictObject({ kind: z.literal('unavailable'), count }),
  z.strictObject({
    kind: z.literal('slow'),
    count,
    delayMs: z.int().check(z.gte(1), z.lte(30_000)),
  }),
])
const MintToken = z.strictObject({
  userId: z.string().check(z.regex(REFERRER_ID_PATTERN)),
  expiresInSeconds: z.optional(z.int().check(z.gte(1), z.lte(MAX_USER_TOKEN_LIFETIME_SECONDS))),
})
const Scope = z.strictObject({ org: z.enum(['acme', 'globex']), mode: z.enum(['test', 'live']) })
const TriggerSwitch = z.strictObject({ rewardTrigger: RewardTrigger })

/** The organization and mode an admin route names (`/admin/acme/test/…`). */
const scopeOf = (c: Context<AppEnv>) =>
  parseOrThrow(Scope, { org: c.req.param('org'), mode: c.req.param('mode') })

export function controlRoutes(service: Controlled) {
  const routes = new Hono<AppEnv>()
  const nowIso = () => new Date(service.clock.now()).toISOString()

  routes.get('/clock', (c) => c.json({ now: nowIso() }))
  routes.post('/clock/advance', async (c) => {
    const { ms } = parseOrThrow(Advance, await jsonBody(c))
    service.clock.advance(ms)
    return c.json({ now: nowIso() })
  })
  // Public keys only: the browser never sees a secret key.
  routes.post('/keys/roll', async (c) => {
    const { key } = parseOrThrow(Roll, await jsonBody(c))
    return c.json({ key: service.rollKey(key) })
  })
  routes.post('/reset', (c) => {
    service.reset()
    return c.json({ ok: true })
  })

  routes.get('/faults', (c) => c.json({ fault: service.faults.get() }))
  routes.post('/faults', async (c) => {
    const fault: FaultPlan = parseOrThrow(Fault, await jsonBody(c))
    service.faults.set(fault)
    return c.json({ fault: service.faults.get() })
  })
  routes.delete('/faults', (c) => {
    service.faults.set(null)
    return c.json({ fault: null })
  })

  routes.get('/requests', (c) => {
    const since = Number(c.req.query('since') ?? 0)
    return c.json({ requests: service.requestLog.since(Number.isFinite(since) ? since : 0) })
  })

  // Campaign administration as the dashboard would do it, with the org's secret key.
  const admin = async (method: string, path: string, org: string, mode: string, body?: unknown) => {
    const response = await service.app.request(
      path,
      {
        method,
        headers: {
          Authorization: `Bearer sk_${mode}_${org}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      { demoAdmin: true },
    )
    return new Response(response.body, {
      status: response.status,
      headers: { 'Content-Type': 'application/json' },
    })
  }
  routes.get('/admin/:org/:mode/campaigns', (c) => {
    const { org, mode } = scopeOf(c)
    return admin('GET', '/v1/campaigns?limit=100', org, mode)
  })
  routes.get('/admin/:org/:mode/campaigns/:id', (c) => {
    const { org, mode } = scopeOf(c)
    return admin('GET', `/v1/campaigns/${encodeURIComponent(c.req.param('id'))}`, org, mode)
  })
  routes.post('/admin/:org/:mode/campaigns', async (c) => {
    const { org, mode } = scopeOf(c)
    return admin('POST', '/v1/campaigns', org, mode, requireObject(await jsonBody(c)))
  })
  routes.patch('/admin/:org/:mode/campaigns/:id', async (c) => {
    const { org, mode } = scopeOf(c)
    const id = encodeURIComponent(c.req.param('id'))
    return admin('PATCH', `/v1/campaigns/${id}`, org, mode, requireObject(await jsonBody(c)))
  })
  // The interface fixes rewardTrigger at creation (400 parameter_not_updatable); QA switches it
  // here, in the store. It applies to the events recorded after it: what was recorded stays.
  routes.post('/admin/:org/:mode/campaigns/:id/trigger', async (c) => {
    const { org, mode } = scopeOf(c)
    const { rewardTrigger } = parseOrThrow(TriggerSwitch, await jsonBody(c))
    const scope = { org: `org_${org}`, mode }
    const campaign = service.store.campaign(scope, c.req.param('id'))
    if (!campaign) throw notFound('No such campaign in this organization and mode.', 'id')
    if (campaign.rewardTrigger !== rewardTrigger) {
      campaign.rewardTrigger = rewardTrigger
      campaign.updatedAt = iso(Math.max(service.clock.now(), Date.parse(campaign.updatedAt) + 1))
      service.store.saveCampaign(scope, campaign)
    }
    const { id, updatedAt } = campaign
    return c.json({ id, rewardTrigger, updatedAt })
  })
  // A purchase recorded as the shop's backend records one (site-backend.ts).
  routes.post('/admin/:org/:mode/purchases', async (c) => {
    const { org, mode } = scopeOf(c)
    const purchase = parseOrThrow(DemoPurchase, await jsonBody(c))
    const incoming = c.env?.incoming
    const result = await recordSitePurchase({
      inProcess: (url, init, env) => service.app.request(url, init, env),
      apiBase: new URL(c.req.url).origin,
      secretKey: `sk_${mode}_${org}`,
      purchase,
      env: incoming ? { incoming } : {},
    })
    return c.json(result)
  })
  // A user token for the demo user, minted as a site's backend would: with the organization's
  // secret key, on the service's clock (which the demo can move), handed to the page.
  routes.post('/admin/:org/:mode/user-token', async (c) => {
    const { org, mode } = scopeOf(c)
    const { userId, expiresInSeconds = 3600 } = parseOrThrow(MintToken, await jsonBody(c))
    const now = service.clock.now()
    const token = await signUserToken({
      secretKey: `sk_${mode}_${org}`,
      userId,
      expiresInSeconds,
      now: () => now,
    })
    const expiresAt = new Date((Math.floor(now / 1000) + expiresInSeconds) * 1000).toISOString()
    return c.json({ token, userId, expiresAt })
  })
  return routes
}
