// The worlds of the authorization matrix (authorization-matrix.test.ts): both organizations in
// both modes, what each holds before a row runs (an active and a paused campaign, a link, its
// referrer's user token), made with that world's own keys, and what the owners and the store
// show of them, so that a row can tell what a request changed and where.

import { expect } from 'vitest'
import type { Campaign, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import { type Answer, campaignBody, type setup } from './helpers.ts'

export type Kind = 'pk' | 'sk'
type Mode = 'test' | 'live'
type Org = 'acme' | 'globex'

export interface World {
  org: Org
  mode: Mode
}

export const WORLDS: readonly World[] = (['acme', 'globex'] as const).flatMap((org) =>
  (['test', 'live'] as const).map((mode) => ({ org, mode })),
)
export const KINDS: readonly Kind[] = ['pk', 'sk']

export const keyOf = (kind: Kind, { org, mode }: World) => `${kind}_${mode}_${org}`
export const worldName = ({ org, mode }: World) => `${org}/${mode}`
export const sameWorld = (a: World, b: World) => a.org === b.org && a.mode === b.mode

/** What each world holds before a row runs, made with that world's own keys. */
export interface Fixture extends World {
  active: string
  paused: string
  /** A link of `active`, referred by `user_owner`. */
  link: Link
  /** user_owner's user token, signed with this world's secret key. */
  token: string
}

/** The answer a row expects: a status with its error code, or an event result. */
export type Outcome =
  | '200'
  | '201'
  | '200 accepted'
  | '200 rejected unknown_code'
  | '401 missing_api_key'
  | '401 invalid_api_key'
  | '401 expired_api_key'
  | '401 user_token_required'
  | '401 user_token_invalid'
  | '403 secret_key_required'
  | '404 resource_missing'
  | '405 method_not_allowed'
  | '409 campaign_not_active'

export interface Request {
  method: string
  path: string
  body?: unknown
  headers?: Record<string, string>
  /** The sendBeacon form of /v1/events: text/plain, the key in the body, no Authorization. */
  beacon?: boolean
}

/** Ids a refused request must not leave behind, looked up in each world's store. */
export const NEW_REFERRER = 'user_matrix'
const NEW_EVENT = 'evt_matrix_0001'

export const clickEvent = (code: string) => ({
  id: NEW_EVENT,
  type: 'click',
  code,
  visitorId: 'visitor_matrix1',
})

export type Context = ReturnType<typeof setup> & { fixtures: Fixture[] }

interface Check {
  ctx: Context
  answer: Answer
  kind: Kind
  target: Fixture
  own: boolean
}

export interface Operation {
  label: string
  /** Whether an accepted request may change data (of its caller's world only). */
  writes: boolean
  /** False when the request names nothing of another world: rows then aim at the caller's own. */
  targeted: boolean
  request: (target: Fixture) => Request
  /** Per key kind: the outcome in the caller's own world, and in any other org or mode. */
  pk: readonly [own: Outcome, foreign: Outcome]
  sk: readonly [own: Outcome, foreign: Outcome]
  /** Checks what an accepted request did or showed. */
  verify?: (check: Check) => Promise<void> | void
}

export const emptySummary = (target: Fixture): LinkSummary => ({
  code: target.link.code,
  campaignId: target.active,
  clicks: 0,
  signups: 0,
  conversions: 0,
  buyers: 0,
  rewardsEarned: { amount: 0, currency: 'USD' },
  recent: [],
})

export const ids = (answer: Answer) =>
  (answer.body as { data: { id: string }[] }).data.map((c) => c.id)

export const ownSecretKey = (target: World) => keyOf('sk', target)

export async function detail(ctx: Context, world: World, id: string) {
  return ctx.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ownSecretKey(world) })
}

export async function makeFixture(ctx: ReturnType<typeof setup>, world: World): Promise<Fixture> {
  const sk = keyOf('sk', world)
  const create = async (name: string) => {
    const made = await ctx.call<Campaign>('POST', '/v1/campaigns', {
      key: sk,
      body: campaignBody(name),
    })
    expect(made.status).toBe(201)
    return made.body.id
  }
  const active = await create(`Matrix ${worldName(world)} active`)
  const paused = await create(`Matrix ${worldName(world)} paused`)
  const pause = await ctx.call('PATCH', `/v1/campaigns/${paused}`, {
    key: sk,
    body: { status: 'paused' },
  })
  expect(pause.status).toBe(200)
  const link = await ctx.call<Link>('POST', '/v1/links', {
    key: keyOf('pk', world),
    body: { campaignId: active, referrerId: 'user_owner' },
  })
  expect(link.status).toBe(201)
  const token = await signUserToken({
    secretKey: sk,
    userId: 'user_owner',
    now: () => ctx.clock.now(),
  })
  return { ...world, active, paused, link: link.body, token }
}

/**
 * A world as its owner sees it over HTTP (list, details, link), for the row's target world,
 * and as the store holds it, for every world: campaigns with stats, and what a refused request
 * could have left behind (a link for NEW_REFERRER, NEW_EVENT accepted).
 */
export async function snapshot(ctx: Context, target: Fixture) {
  const key = ownSecretKey(target)
  const list = await ctx.call('GET', '/v1/campaigns?limit=100', { key })
  const details = []
  for (const id of ids(list))
    details.push((await ctx.call('GET', `/v1/campaigns/${id}`, { key })).body)
  const link = await ctx.call('GET', `/v1/links/${target.link.code}`, { key })
  const stored = ctx.fixtures.map((fixture) => {
    const scope = { org: `org_${fixture.org}`, mode: fixture.mode }
    const { store } = ctx.service
    return {
      campaigns: store.campaigns(scope),
      link: store.linkByCode(scope, fixture.link.code),
      newLinks: [fixture.active, fixture.paused].map((id) =>
        store.linkByReferrer(scope, id, NEW_REFERRER),
      ),
      eventSeen: store.isAccepted(scope, NEW_EVENT),
    }
  })
  return { seenByOwner: { list: list.body, details, link: link.body }, stored }
}
