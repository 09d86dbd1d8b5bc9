// The authorization matrix (CONTRACT.md "Keys, modes, organizations"): each demo key of both
// organizations, against every route of the interface, aimed at data that really exists in each
// organization and mode, so that a wrong 200 shows as clearly as a wrong 404. A refused request
// leaves every world as it was; an accepted one changes nothing outside its caller's world.

import { beforeEach, describe, expect, it } from 'vitest'
import type { Campaign, EventsResponse, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import {
  type Answer,
  type CallOptions,
  campaignBody,
  DEMO_KEYS,
  errorOf,
  HOUR,
  PUBLIC_FIELDS,
  setup,
} from './helpers.ts'

type Kind = 'pk' | 'sk'
type Mode = 'test' | 'live'
type Org = 'acme' | 'globex'

interface World {
  org: Org
  mode: Mode
}

const WORLDS: readonly World[] = (['acme', 'globex'] as const).flatMap((org) =>
  (['test', 'live'] as const).map((mode) => ({ org, mode })),
)
const KINDS: readonly Kind[] = ['pk', 'sk']

const keyOf = (kind: Kind, { org, mode }: World) => `${kind}_${mode}_${org}`
const worldName = ({ org, mode }: World) => `${org}/${mode}`
const sameWorld = (a: World, b: World) => a.org === b.org && a.mode === b.mode

/** What each world holds before a row runs, made with that world's own keys. */
interface Fixture extends World {
  active: string
  paused: string
  /** A link of `active`, referred by `user_owner`. */
  link: Link
  /** user_owner's user token, signed with this world's secret key. */
  token: string
}

/** The answer a row expects: a status with its error code, or an event result. */
type Outcome =
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

interface Request {
  method: string
  path: string
  body?: unknown
  headers?: Record<string, string>
  /** The sendBeacon form of /v1/events: text/plain, the key in the body, no Authorization. */
  beacon?: boolean
}

/** Ids a refused request must not leave behind, looked up in each world's store. */
const NEW_REFERRER = 'user_matrix'
const NEW_EVENT = 'evt_matrix_0001'

const clickEvent = (code: string) => ({
  id: NEW_EVENT,
  type: 'click',
  code,
  visitorId: 'visitor_matrix1',
})

type Context = ReturnType<typeof setup> & { fixtures: Fixture[] }

interface Check {
  ctx: Context
  answer: Answer
  kind: Kind
  target: Fixture
  own: boolean
}

interface Operation {
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

const emptySummary = (target: Fixture): LinkSummary => ({
  code: target.link.code,
  campaignId: target.active,
  clicks: 0,
  signups: 0,
  conversions: 0,
  buyers: 0,
  rewardsEarned: { amount: 0, currency: 'USD' },
  recent: [],
})

const ids = (answer: Answer) => (answer.body as { data: { id: string }[] }).data.map((c) => c.id)

const ownSecretKey = (target: World) => keyOf('sk', target)

async function detail(ctx: Context, world: World, id: string) {
  return ctx.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ownSecretKey(world) })
}

const OPERATIONS: readonly Operation[] = [
  {
    label: 'GET /v1/campaigns',
    writes: false,
    targeted: true,
    request: () => ({ method: 'GET', path: '/v1/campaigns?limit=100' }),
    pk: ['200', '200'],
    sk: ['200', '200'],
    verify: ({ answer, kind, target, own }) => {
      const listed = ids(answer)
      expect(listed.includes(target.active)).toBe(own)
      // A public key sees active campaigns only, and only their public view.
      expect(listed.includes(target.paused)).toBe(own && kind === 'sk')
      if (kind === 'pk') {
        for (const item of (answer.body as { data: object[] }).data) {
          expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS)
        }
      }
    },
  },
  {
    label: 'GET /v1/campaigns?status=paused',
    writes: false,
    targeted: true,
    request: () => ({ method: 'GET', path: '/v1/campaigns?status=paused' }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['200', '200'],
    verify: ({ answer, target, own }) => {
      expect(ids(answer).includes(target.paused)).toBe(own)
      expect(ids(answer)).not.toContain(target.active)
    },
  },
  {
    label: 'POST /v1/campaigns',
    writes: true,
    targeted: false,
    request: () => ({
      method: 'POST',
      path: '/v1/campaigns',
      body: campaignBody('Made by matrix'),
    }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['201', '201'],
    verify: async ({ ctx, answer, target }) => {
      const made = await detail(ctx, target, (answer.body as Campaign).id)
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({ name: 'Made by matrix', status: 'active' })
    },
  },
  {
    label: 'GET /v1/campaigns/:id (active)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/campaigns/${target.active}` }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, kind, target }) => {
      const shown = answer.body as Campaign
      expect(shown.id).toBe(target.active)
      if (kind === 'pk') expect(Object.keys(shown).sort()).toEqual(PUBLIC_FIELDS)
      else
        expect(shown.stats).toEqual({ totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 })
    },
  },
  {
    label: 'GET /v1/campaigns/:id (paused)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/campaigns/${target.paused}` }),
    // A public key cannot tell a paused campaign from a missing one.
    pk: ['404 resource_missing', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => {
      expect(answer.body).toMatchObject({ id: target.paused, status: 'paused' })
    },
  },
  {
    label: 'PATCH /v1/campaigns/:id',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'PATCH',
      path: `/v1/campaigns/${target.active}`,
      body: { name: 'Renamed by matrix', referrerReward: { amount: 7 } },
    }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['200', '404 resource_missing'],
    verify: async ({ ctx, target }) => {
      const shown = await detail(ctx, target, target.active)
      expect(shown.body.name).toBe('Renamed by matrix')
      expect(shown.body.referrerReward).toEqual({ type: 'credit', amount: 7, currency: 'USD' })
    },
  },
  {
    label: 'DELETE /v1/campaigns/:id',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'DELETE', path: `/v1/campaigns/${target.active}` }),
    pk: ['405 method_not_allowed', '405 method_not_allowed'],
    sk: ['405 method_not_allowed', '405 method_not_allowed'],
  },
  {
    label: 'POST /v1/links (new referrer)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: NEW_REFERRER },
    }),
    pk: ['201', '404 resource_missing'],
    sk: ['201', '404 resource_missing'],
    verify: async ({ ctx, answer, target }) => {
      const link = answer.body as Link
      expect(link).toMatchObject({ campaignId: target.active, referrerId: NEW_REFERRER })
      const found = await ctx.call('GET', `/v1/links/${link.code}`, { key: ownSecretKey(target) })
      expect(found.body).toEqual(link)
    },
  },
  {
    label: 'POST /v1/links (existing referrer)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: target.link.referrerId },
    }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'POST /v1/links (paused campaign)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.paused, referrerId: NEW_REFERRER },
    }),
    pk: ['409 campaign_not_active', '404 resource_missing'],
    sk: ['409 campaign_not_active', '404 resource_missing'],
  },
  {
    label: 'GET /v1/links/:code',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/links/${target.link.code}` }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'POST /v1/links (existing referrer, with their token)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: 'user_owner', userToken: target.token },
    }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'GET /v1/links/:code/summary (the referrer token)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'GET',
      path: `/v1/links/${target.link.code}/summary`,
      headers: { 'Referral-User-Token': target.token },
    }),
    // The token is checked before the link is looked up: one signed in another world is not genuine.
    pk: ['200', '401 user_token_invalid'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(emptySummary(target)),
  },
  {
    label: 'GET /v1/links/:code/summary (no token)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/links/${target.link.code}/summary` }),
    pk: ['401 user_token_required', '401 user_token_required'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(emptySummary(target)),
  },
  {
    label: 'POST /v1/links/:code/summary',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: `/v1/links/${target.link.code}/summary`,
      body: {},
    }),
    pk: ['405 method_not_allowed', '405 method_not_allowed'],
    sk: ['405 method_not_allowed', '405 method_not_allowed'],
  },
  {
    label: 'POST /v1/events (JSON)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/events',
      body: { events: [clickEvent(target.link.code)] },
    }),
    pk: ['200 accepted', '200 rejected unknown_code'],
    sk: ['200 accepted', '200 rejected unknown_code'],
    verify: async ({ ctx, target }) => {
      expect((await detail(ctx, target, target.active)).body.stats.totalClicks).toBe(1)
    },
  },
  {
    label: 'POST /v1/events (beacon, text/plain)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/events',
      body: { events: [clickEvent(target.link.code)] },
      beacon: true,
    }),
    pk: ['200 accepted', '200 rejected unknown_code'],
    // A secret key must never travel in a page's beacon, whatever it would reach.
    sk: ['403 secret_key_required', '403 secret_key_required'],
    verify: async ({ ctx, target }) => {
      expect((await detail(ctx, target, target.active)).body.stats.totalClicks).toBe(1)
    },
  },
]

/** Keys that must be refused before anything else, aimed at acme/test, which they would reach. */
const REFUSED_KEYS: ReadonlyArray<{
  label: string
  outcome: Outcome
  key: (ctx: Context) => string | undefined
}> = [
  { label: 'no key', outcome: '401 missing_api_key', key: () => undefined },
  {
    label: 'malformed key sk_test_ac!me',
    outcome: '401 invalid_api_key',
    key: () => 'sk_test_ac!me',
  },
  {
    label: 'unknown key pk_test_nobody',
    outcome: '401 invalid_api_key',
    key: () => 'pk_test_nobody',
  },
  {
    label: `expired ${DEMO_KEYS.acmeRolled}`,
    outcome: '401 expired_api_key',
    key: () => DEMO_KEYS.acmeRolled,
  },
  {
    label: 'expired pk_test_acme (rolled 25 h ago)',
    outcome: '401 expired_api_key',
    key: ({ service, clock }) => {
      service.rollKey(DEMO_KEYS.acme.pkTest)
      clock.advance(25 * HOUR)
      return DEMO_KEYS.acme.pkTest
    },
  },
]

async function makeFixture(ctx: ReturnType<typeof setup>, world: World): Promise<Fixture> {
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
async function snapshot(ctx: Context, target: Fixture) {
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

async function send(ctx: Context, request: Request, key: string | undefined) {
  if (request.beacon) {
    const body = { ...(key === undefined ? {} : { key }), ...(request.body as object) }
    return ctx.call(request.method, request.path, {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'text/plain' },
    })
  }
  const options: CallOptions = {}
  if (request.headers !== undefined) options.headers = request.headers
  if (key !== undefined) options.key = key
  if (request.body !== undefined) options.body = request.body
  return ctx.call(request.method, request.path, options)
}

function expectOutcome(answer: Answer, outcome: Outcome) {
  const [status, code, eventCode] = outcome.split(' ')
  expect(answer.status, JSON.stringify(answer.body)).toBe(Number(status))
  if (answer.status >= 400) {
    expect(errorOf(answer).code).toBe(code)
  } else if (code !== undefined) {
    // '200 accepted' or '200 rejected unknown_code': the result of the one event sent.
    const [result] = (answer.body as EventsResponse).results
    expect(result?.status).toBe(code)
    if (eventCode !== undefined) expect(result?.error?.code).toBe(eventCode)
  }
}

const isRefused = (outcome: Outcome) => !/^20[01]( accepted)?$/.test(outcome)

interface Row {
  name: string
  operation: Operation
  /** The caller's key kind and world; absent for the keys refused outright. */
  caller?: { kind: Kind } & World
  refusedKey?: (typeof REFUSED_KEYS)[number]
  target: World
  outcome: Outcome
}

const ROWS: Row[] = []
for (const operation of OPERATIONS) {
  for (const kind of KINDS) {
    for (const callerWorld of WORLDS) {
      const targets = operation.targeted ? WORLDS : [callerWorld]
      for (const target of targets) {
        const own = sameWorld(callerWorld, target)
        const outcome = operation[kind][own ? 0 : 1]
        const aim = operation.targeted ? ` → ${worldName(target)}` : ''
        ROWS.push({
          name: `${kind}_${callerWorld.mode} · ${callerWorld.org}${aim} · ${operation.label} → ${outcome}`,
          operation,
          caller: { kind, ...callerWorld },
          target,
          outcome,
        })
      }
    }
  }
  for (const refusedKey of REFUSED_KEYS) {
    ROWS.push({
      name: `${refusedKey.label} → acme/test · ${operation.label} → ${refusedKey.outcome}`,
      operation,
      refusedKey,
      target: { org: 'acme', mode: 'test' },
      outcome: refusedKey.outcome,
    })
  }
}

describe('authorization matrix', () => {
  let ctx: Context

  beforeEach(async () => {
    const base = setup()
    const fixtures: Fixture[] = []
    for (const world of WORLDS) fixtures.push(await makeFixture(base, world))
    ctx = { ...base, fixtures }
  })

  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const target = ctx.fixtures.find((fixture) => sameWorld(fixture, row.target))
    if (!target) throw new Error(`no fixture for ${worldName(row.target)}`)
    const key = row.caller ? keyOf(row.caller.kind, row.caller) : row.refusedKey?.key(ctx)
    const before = await snapshot(ctx, target)

    const answer = await send(ctx, row.operation.request(target), key)

    expectOutcome(answer, row.outcome)
    const after = await snapshot(ctx, target)
    if (isRefused(row.outcome) || !row.operation.writes) {
      expect(after).toEqual(before)
    } else {
      // An accepted write stays inside its caller's organization and mode.
      ctx.fixtures.forEach((world, index) => {
        if (!row.caller || !sameWorld(world, row.caller)) {
          expect(after.stored[index]).toEqual(before.stored[index])
        }
      })
      if (row.caller && !sameWorld(row.caller, target)) {
        expect(after.seenByOwner).toEqual(before.seenByOwner)
      }
    }
    if (!isRefused(row.outcome) && row.caller) {
      await row.operation.verify?.({
        ctx,
        answer,
        kind: row.caller.kind,
        target,
        own: sameWorld(row.caller, target),
      })
    }
  })

  it('has rows for every route and method the service serves', () => {
    const served = ctx.service.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path}`)
    const covered = OPERATIONS.map((operation) => operation.label.split(/[?(]/)[0]?.trim())
    expect(served).not.toEqual([])
    for (const route of served) expect(covered).toContain(route)
  })
})
