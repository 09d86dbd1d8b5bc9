// Contract tests for authentication, mode and organization isolation, the error body, routing
// errors, body limits, media types and CORS: the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign, EventsResponse, Link } from '../../demo/service/schemas.ts'
import { createMemoryStore, type Store } from '../../demo/service/store.ts'
import {
  type Answer,
  campaignBody,
  DAY,
  DEMO_CAMPAIGNS,
  DEMO_KEYS,
  errorOf,
  HOUR,
  setup,
} from './helpers.ts'

const ACME = DEMO_KEYS.acme
const GLOBEX = DEMO_KEYS.globex
const ORIGIN = 'https://shop.example'

/** CONTRACT.md "Errors": the type that goes with each status. */
const TYPE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
}

const EXPOSED = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']

/** Checks the contract's error body exactly, and the type for the status. */
function expectErrorBody(answer: Answer, status: number, code?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json\b/)
  const body = answer.body as Record<string, unknown>
  expect(typeof body).toBe('object')
  expect(Object.keys(body)).toEqual(['error'])
  const error = body.error as Record<string, unknown>
  for (const field of Object.keys(error)) {
    expect(['type', 'code', 'message', 'param']).toContain(field)
  }
  expect(typeof error.type).toBe('string')
  expect(typeof error.code).toBe('string')
  expect(typeof error.message).toBe('string')
  expect((error.message as string).length).toBeGreaterThan(0)
  if ('param' in error) expect(typeof error.param).toBe('string')
  expect(error.type).toBe(TYPE_OF_STATUS[status])
  if (code !== undefined) expect(error.code).toBe(code)
  return errorOf(answer)
}

const splitList = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)

/** What a browser needs to read an answer cross-origin, and the headers the widget reads. */
function expectReadableCrossOrigin(answer: Answer, label: string) {
  const allowOrigin = answer.headers.get('access-control-allow-origin')
  expect(allowOrigin === '*' || allowOrigin === ORIGIN, `${label}: Allow-Origin`).toBe(true)
  const exposed = splitList(answer.headers.get('access-control-expose-headers'))
  for (const header of EXPOSED) expect(exposed, `${label}: ${header} exposed`).toContain(header)
}

/** A store whose campaign lookups blow up, with a key and a stack in the error. */
function explodingStore(): Store {
  const base = createMemoryStore()
  return {
    ...base,
    campaign: (scope, id) => {
      if (id === 'camp_explodeExplode123') {
        const error = new TypeError(
          `boom for ${ACME.skTest} at /work/main/demo/service/store.ts:42:7`,
        )
        throw error
      }
      return base.campaign(scope, id)
    },
  }
}

const eventsBody = (id: string, code: string) => ({
  events: [{ id, type: 'click', code, visitorId: 'visitor_isolation1' }],
})

describe('API keys', () => {
  test.each([
    ['pk_test', ACME.pkTest],
    ['sk_test', ACME.skTest],
    ['pk_live', ACME.pkLive],
    ['sk_live', ACME.skLive],
  ])('a %s key authenticates', async (_kind, key) => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { key })
    expect(answer.status).toBe(200)
  })

  test('secret keys create campaigns in their mode; public keys cannot', async () => {
    const { call } = setup()
    for (const key of [ACME.skTest, ACME.skLive]) {
      const answer = await call('POST', '/v1/campaigns', { key, body: campaignBody() })
      expect(answer.status).toBe(201)
    }
    for (const key of [ACME.pkTest, ACME.pkLive]) {
      const answer = await call('POST', '/v1/campaigns', { key, body: campaignBody() })
      expectErrorBody(answer, 403, 'secret_key_required')
    }
  })

  test.each([
    ['test', ACME.skTest, ACME.pkTest],
    ['live', ACME.skLive, ACME.pkLive],
  ])('in %s mode a public key creates links and sends events', async (_mode, sk, pk) => {
    const { call } = setup()
    const campaign = await call<Campaign>('POST', '/v1/campaigns', {
      key: sk,
      body: campaignBody(),
    })
    expect(campaign.status).toBe(201)
    const link = await call<Link>('POST', '/v1/links', {
      key: pk,
      body: { campaignId: campaign.body.id, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    const events = await call<EventsResponse>('POST', '/v1/events', {
      key: pk,
      body: eventsBody('evt_keys_0001', link.body.code),
    })
    expect(events.status).toBe(200)
    expect(events.body.results[0]?.status).toBe('accepted')
  })

  test.each([
    ['GET', '/v1/campaigns'],
    ['POST', '/v1/campaigns'],
    ['GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['POST', '/v1/links'],
    ['GET', '/v1/links/abcdefgh12'],
    ['POST', '/v1/events'],
  ])('%s %s without Authorization is 401 missing_api_key', async (method, path) => {
    const { call } = setup()
    const body = method === 'GET' ? undefined : {}
    const answer = await call(method, path, body === undefined ? {} : { body })
    expectErrorBody(answer, 401, 'missing_api_key')
  })

  test.each([
    ['a well-formed unknown key', 'sk_test_nobodyHere'],
    ['another org’s key with a typo', 'pk_test_globexx'],
    ['an unknown mode', 'sk_prod_acme'],
    ['an unknown kind', 'rk_test_acme'],
    ['a too short secret', 'sk_test_acm'],
    ['a too long secret', `sk_test_${'a'.repeat(65)}`],
    ['a character outside [A-Za-z0-9]', 'sk_test_acme!'],
    ['upper-case prefix', 'SK_TEST_ACME'],
    ['a bare prefix', 'sk_test_'],
  ])('%s is 401 invalid_api_key', async (_what, key) => {
    const { call } = setup()
    expectErrorBody(await call('GET', '/v1/campaigns', { key }), 401, 'invalid_api_key')
  })

  test.each([
    ['Basic', `Basic ${Buffer.from(`${ACME.skTest}:`).toString('base64')}`],
    ['Token', `Token ${ACME.skTest}`],
    ['no scheme', ACME.skTest],
    ['Bearer without a key', 'Bearer'],
    ['Bearer with two tokens', `Bearer ${ACME.skTest} ${ACME.skTest}`],
  ])('the %s form is 401 invalid_api_key', async (_what, authorization) => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { headers: { Authorization: authorization } })
    expectErrorBody(answer, 401, 'invalid_api_key')
  })

  // RFC 7235 section 2.1: the authentication scheme is a case-insensitive token.
  test('the Bearer scheme name is case-insensitive', async () => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', {
      headers: { Authorization: `bearer ${ACME.skTest}` },
    })
    expect(answer.status).toBe(200)
  })

  test('sk_test_acmeold, rolled 25 hours before start, is 401 expired_api_key', async () => {
    const { call } = setup()
    expectErrorBody(
      await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acmeRolled }),
      401,
      'expired_api_key',
    )
  })

  test.each([
    ['secret', ACME.skTest],
    ['public', ACME.pkTest],
  ])(
    'a rolled %s key works 24 hours, then is 401 expired_api_key; the new key works throughout',
    async (_kind, oldKey) => {
      const { call, clock, service } = setup()
      const newKey = service.rollKey(oldKey)
      expect(newKey).toMatch(/^(pk|sk)_test_[A-Za-z0-9]{4,64}$/)
      expect(newKey.slice(0, 3)).toBe(oldKey.slice(0, 3))
      expect(newKey).not.toBe(oldKey)

      const sees = async (key: string) => {
        const answer = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', { key })
        expect(answer.status, `${key} at +${clock.now()}`).toBe(200)
        expect(answer.body.data.map((c) => c.id)).toContain(DEMO_CAMPAIGNS.acme)
      }

      await sees(newKey)
      await sees(oldKey)
      clock.advance(23 * HOUR)
      await sees(oldKey)
      clock.advance(HOUR - 1)
      await sees(oldKey)
      clock.advance(1)
      expectErrorBody(await call('GET', '/v1/campaigns', { key: oldKey }), 401, 'expired_api_key')
      await sees(newKey)
      clock.advance(30 * DAY)
      expectErrorBody(await call('GET', '/v1/campaigns', { key: oldKey }), 401, 'expired_api_key')
      await sees(newKey)
      // Other keys of the org are untouched by the roll.
      await sees(oldKey.startsWith('sk_') ? ACME.pkTest : ACME.skTest)
    },
  )

  test('the new key of a roll sees and changes the same data as the old one', async () => {
    const { call, service } = setup()
    const made = await call<Campaign>('POST', '/v1/campaigns', {
      key: ACME.skTest,
      body: campaignBody('Before the roll'),
    })
    const newKey = service.rollKey(ACME.skTest)
    const shown = await call<Campaign>('GET', `/v1/campaigns/${made.body.id}`, { key: newKey })
    expect(shown.status).toBe(200)
    expect(shown.body.name).toBe('Before the roll')
    const patched = await call('PATCH', `/v1/campaigns/${made.body.id}`, {
      key: newKey,
      body: { status: 'paused' },
    })
    expect(patched.status).toBe(200)
  })
})

describe('test and live modes are separate worlds', () => {
  test.each([
    ['test', 'live', ACME.skTest, ACME.skLive, ACME.pkLive],
    ['live', 'test', ACME.skLive, ACME.skTest, ACME.pkTest],
  ])(
    'a campaign made in %s mode is 404 and unlisted in %s mode',
    async (_from, _to, maker, otherSk, otherPk) => {
      const { call } = setup()
      const made = await call<Campaign>('POST', '/v1/campaigns', {
        key: maker,
        body: campaignBody('Mode bound'),
      })
      expect(made.status).toBe(201)
      const id = made.body.id

      for (const key of [otherSk, otherPk]) {
        expectErrorBody(await call('GET', `/v1/campaigns/${id}`, { key }), 404, 'resource_missing')
        const listed = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', { key })
        expect(listed.body.data.map((c) => c.id)).not.toContain(id)
      }
      expectErrorBody(
        await call('PATCH', `/v1/campaigns/${id}`, { key: otherSk, body: { status: 'paused' } }),
        404,
        'resource_missing',
      )
      const still = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: maker })
      expect(still.body.status).toBe('active')
    },
  )

  test('links and events of test mode do not exist in live mode', async () => {
    const { call } = setup()
    expectErrorBody(
      await call('POST', '/v1/links', {
        key: ACME.pkLive,
        body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
      }),
      404,
    )
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    const code = link.body.code
    for (const key of [ACME.pkLive, ACME.skLive]) {
      expectErrorBody(await call('GET', `/v1/links/${code}`, { key }), 404, 'resource_missing')
    }
    const click = await call<EventsResponse>('POST', '/v1/events', {
      key: ACME.pkLive,
      body: eventsBody('evt_mode_00001', code),
    })
    expect(click.status).toBe(200)
    expect(click.body.results[0]).toMatchObject({
      id: 'evt_mode_00001',
      status: 'rejected',
      error: { code: 'unknown_code' },
    })
    const campaign = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(campaign.body.stats.totalClicks).toBe(0)
  })
})

describe('organizations are separate worlds', () => {
  test("another org's campaign is 404 for detail and patch, and absent from the list", async () => {
    const { call } = setup()
    for (const key of [GLOBEX.skTest, GLOBEX.pkTest]) {
      expectErrorBody(
        await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, { key }),
        404,
        'resource_missing',
      )
      const listed = await call<{ data: { id: string }[]; total: number }>('GET', '/v1/campaigns', {
        key,
      })
      expect(listed.body.data.map((c) => c.id)).toEqual([DEMO_CAMPAIGNS.globex])
      expect(listed.body.total).toBe(1)
    }
    expectErrorBody(
      await call('PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
        key: GLOBEX.skTest,
        body: { status: 'archived' },
      }),
      404,
      'resource_missing',
    )
    const acme = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(acme.body.status).toBe('active')
  })

  test("a 404 for another org's id is the same answer as for an id that never existed", async () => {
    const { call } = setup()
    const foreign = await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: GLOBEX.skTest,
    })
    const never = await call('GET', '/v1/campaigns/camp_neverNeverNever1', { key: GLOBEX.skTest })
    expect(errorOf(foreign)).toEqual(errorOf(never))
  })

  test("links: another org's campaign cannot be linked, nor its codes resolved", async () => {
    const { call } = setup()
    expectErrorBody(
      await call('POST', '/v1/links', {
        key: GLOBEX.pkTest,
        body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
      }),
      404,
      'resource_missing',
    )
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    for (const key of [GLOBEX.pkTest, GLOBEX.skTest]) {
      expectErrorBody(
        await call('GET', `/v1/links/${link.body.code}`, { key }),
        404,
        'resource_missing',
      )
    }
    const own = await call<Link>('GET', `/v1/links/${link.body.code}`, { key: ACME.pkTest })
    expect(own.status).toBe(200)
    expect(own.body.id).toBe(link.body.id)
  })

  test("events: a click with another org's code is rejected unknown_code and counts nowhere", async () => {
    const { call } = setup()
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    const click = await call<EventsResponse>('POST', '/v1/events', {
      key: GLOBEX.pkTest,
      body: eventsBody('evt_org_000001', link.body.code),
    })
    expect(click.status).toBe(200)
    expect(click.body.results).toEqual([
      expect.objectContaining({
        id: 'evt_org_000001',
        status: 'rejected',
        error: expect.objectContaining({ code: 'unknown_code' }),
      }),
    ])
    const stats = async (key: string, id: string) =>
      (await call<Campaign>('GET', `/v1/campaigns/${id}`, { key })).body.stats.totalClicks
    expect(await stats(ACME.skTest, DEMO_CAMPAIGNS.acme)).toBe(0)
    expect(await stats(GLOBEX.skTest, DEMO_CAMPAIGNS.globex)).toBe(0)

    // The same event id, sent by its own org, is still new there.
    const own = await call<EventsResponse>('POST', '/v1/events', {
      key: ACME.pkTest,
      body: eventsBody('evt_org_000001', link.body.code),
    })
    expect(own.body.results[0]?.status).toBe('accepted')
    expect(await stats(ACME.skTest, DEMO_CAMPAIGNS.acme)).toBe(1)
  })
})

describe('error bodies', () => {
  test('every error has exactly {error: {type, code, message, param?}} with the type of its status', async () => {
    const { call, service } = setup()
    const sk = ACME.skTest
    const camp = `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`
    const archived = await call<Campaign>('POST', '/v1/campaigns', {
      key: sk,
      body: campaignBody(),
    })
    await call('PATCH', `/v1/campaigns/${archived.body.id}`, {
      key: sk,
      body: { status: 'archived' },
    })
    const rolled = service.rollKey(GLOBEX.skTest)
    expect(rolled).toBeTruthy()

    const cases: Array<[Answer, number, string]> = [
      [await call('POST', '/v1/campaigns', { key: sk, body: '{' }), 400, 'invalid_json'],
      [await call('POST', '/v1/campaigns', { key: sk, body: {} }), 400, 'parameter_missing'],
      [
        await call('POST', '/v1/campaigns', { key: sk, body: { ...campaignBody(), name: '' } }),
        400,
        'parameter_invalid',
      ],
      [
        await call('POST', '/v1/campaigns', { key: sk, body: { ...campaignBody(), x: 1 } }),
        400,
        'parameter_unknown',
      ],
      [await call('PATCH', camp, { key: sk, body: { id: 'x' } }), 400, 'parameter_not_updatable'],
      [await call('GET', '/v1/campaigns'), 401, 'missing_api_key'],
      [await call('GET', '/v1/campaigns', { key: 'sk_test_nobody' }), 401, 'invalid_api_key'],
      [await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acmeRolled }), 401, 'expired_api_key'],
      [
        await call('POST', '/v1/campaigns', { key: ACME.pkTest, body: campaignBody() }),
        403,
        'secret_key_required',
      ],
      [
        await call('GET', '/v1/campaigns/camp_AAAAAAAAAAAAAAAAAAAA', { key: sk }),
        404,
        'resource_missing',
      ],
      [await call('GET', '/v1/nothing-here', { key: sk }), 404, 'route_missing'],
      [await call('GET', '/nothing-here'), 404, 'route_missing'],
      [await call('DELETE', camp, { key: sk }), 405, 'method_not_allowed'],
      [
        await call('PATCH', `/v1/campaigns/${archived.body.id}`, {
          key: sk,
          body: { status: 'active' },
        }),
        409,
        'invalid_state_transition',
      ],
      [
        await call('POST', '/v1/links', {
          key: sk,
          body: { campaignId: archived.body.id, referrerId: 'user_1' },
        }),
        409,
        'campaign_not_active',
      ],
      [
        await call('POST', '/v1/campaigns', { key: sk, body: 'x'.repeat(64 * 1024 + 1) }),
        413,
        'body_too_large',
      ],
      [
        await call('POST', '/v1/campaigns', {
          key: sk,
          body: JSON.stringify(campaignBody()),
          headers: { 'Content-Type': 'text/plain' },
        }),
        415,
        'unsupported_media_type',
      ],
    ]
    for (const [answer, status, code] of cases) expectErrorBody(answer, status, code)

    const limited = setup({ skRateLimit: 1 })
    await limited.call('GET', '/v1/campaigns', { key: sk })
    expectErrorBody(await limited.call('GET', '/v1/campaigns', { key: sk }), 429, 'rate_limited')

    const broken = setup({ store: explodingStore() })
    expectErrorBody(
      await broken.call('GET', '/v1/campaigns/camp_explodeExplode123', { key: sk }),
      500,
      'internal_error',
    )
  })

  test('a 500 never carries the stack trace, the internal message or a key', async () => {
    const { call } = setup({ store: explodingStore() })
    const answer = await call('GET', '/v1/campaigns/camp_explodeExplode123', { key: ACME.skTest })
    expectErrorBody(answer, 500, 'internal_error')
    const text = JSON.stringify(answer.body)
    expect(text).not.toContain('boom')
    expect(text).not.toContain(ACME.skTest)
    expect(text).not.toContain('TypeError')
    expect(text).not.toMatch(/\.ts:\d+|node_modules|\bat \S+ \(/)
    // The service keeps answering afterwards.
    expect((await call('GET', '/v1/campaigns', { key: ACME.skTest })).status).toBe(200)
  })

  test('error messages never repeat the key that was sent', async () => {
    const { call, clock, service } = setup()
    const rolledOld = ACME.pkLive
    service.rollKey(rolledOld)
    clock.advance(DAY)
    const unknownKey = 'sk_live_doesNotExist12345'
    const answers: Array<[string, Answer]> = [
      [unknownKey, await call('GET', '/v1/campaigns', { key: unknownKey })],
      [DEMO_KEYS.acmeRolled, await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acmeRolled })],
      [rolledOld, await call('GET', '/v1/campaigns', { key: rolledOld })],
      [
        ACME.skTest,
        await call('GET', '/v1/campaigns', {
          headers: { Authorization: `Bearer ${ACME.skTest} extra` },
        }),
      ],
      [
        ACME.skTest,
        await call('GET', '/v1/campaigns', { headers: { Authorization: `Token ${ACME.skTest}` } }),
      ],
      [
        ACME.pkTest,
        await call('POST', '/v1/campaigns', { key: ACME.pkTest, body: campaignBody() }),
      ],
      [
        ACME.skTest,
        await call('POST', '/v1/campaigns', { key: ACME.skTest, body: { key: ACME.skTest } }),
      ],
      [
        ACME.skTest,
        await call('POST', '/v1/events', {
          body: JSON.stringify({ key: ACME.skTest, events: [] }),
          headers: { 'Content-Type': 'text/plain' },
        }),
      ],
      [
        ACME.pkTest,
        await call('POST', '/v1/events', {
          body: `{"key":"${ACME.pkTest}","events":`,
          headers: { 'Content-Type': 'text/plain' },
        }),
      ],
      [ACME.skTest, await call('GET', '/v1/campaigns?limit=abc', { key: ACME.skTest })],
    ]
    for (const [key, answer] of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400)
      const text = JSON.stringify(answer.body)
      expect(text, `answer ${answer.status} repeats ${key}`).not.toContain(key)
      expect(text).not.toMatch(/\.ts:\d+|node_modules|\bat \S+ \(/)
    }
  })
})

describe('routing errors', () => {
  test.each([
    '/v1/nope',
    '/v1/campaigns/camp_AAAAAAAAAAAAAAAAAAAA/links',
    '/v1/links/abcdefgh12/clicks',
    '/v1/Campaigns',
    '/v1',
    '/v2/campaigns',
  ])('GET %s with a key is 404 route_missing', async (path) => {
    const { call } = setup()
    expectErrorBody(await call('GET', path, { key: ACME.skTest }), 404, 'route_missing')
  })

  test.each(['/', '/campaigns', '/nope', '/api/v1/campaigns'])(
    'GET %s outside /v1 is 404 route_missing, with or without a key',
    async (path) => {
      const { call } = setup()
      expectErrorBody(await call('GET', path), 404, 'route_missing')
      expectErrorBody(await call('GET', path, { key: ACME.skTest }), 404, 'route_missing')
    },
  )

  test.each([
    ['DELETE', '/v1/campaigns', ['GET', 'POST']],
    ['PUT', '/v1/campaigns', ['GET', 'POST']],
    ['PATCH', '/v1/campaigns', ['GET', 'POST']],
    ['DELETE', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, ['GET', 'PATCH']],
    ['PUT', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, ['GET', 'PATCH']],
    ['POST', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, ['GET', 'PATCH']],
    ['DELETE', '/v1/campaigns/camp_AAAAAAAAAAAAAAAAAAAA', ['GET', 'PATCH']],
    ['GET', '/v1/links', ['POST']],
    ['DELETE', '/v1/links', ['POST']],
    ['POST', '/v1/links/abcdefgh12', ['GET']],
    ['DELETE', '/v1/links/abcdefgh12', ['GET']],
    ['GET', '/v1/events', ['POST']],
    ['PUT', '/v1/events', ['POST']],
  ])('%s %s is 405 method_not_allowed with Allow', async (method, path, allowed) => {
    const { call } = setup()
    const detail = () =>
      call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, { key: ACME.skTest })
    const before = (await detail()).body
    const answer = await call(method, path, {
      key: ACME.skTest,
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: { status: 'archived' } }),
    })
    expectErrorBody(answer, 405, 'method_not_allowed')
    expect(
      splitList(answer.headers.get('allow'))
        .map((m) => m.toUpperCase())
        .sort(),
    ).toEqual([...allowed].sort())
    expect((await detail()).body).toEqual(before)
  })
})

describe('request bodies', () => {
  test.each([
    ['POST', '/v1/campaigns'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['POST', '/v1/links'],
    ['POST', '/v1/events'],
  ])('%s %s over 64 KiB is 413 body_too_large', async (method, path) => {
    const { call } = setup()
    const padding = 'x'.repeat(64 * 1024)
    const body = JSON.stringify({ name: 'Too big', description: padding })
    expect(body.length).toBeGreaterThan(64 * 1024)
    const key = path === '/v1/campaigns' || method === 'PATCH' ? ACME.skTest : ACME.pkTest
    expectErrorBody(await call(method, path, { key, body }), 413, 'body_too_large')
  })

  test('exactly 64 KiB is read (not 413) and one byte more is 413', async () => {
    const { call } = setup()
    const sized = (bytes: number) => {
      const frame = JSON.stringify({ ...campaignBody(), pad: '' })
      return JSON.stringify({ ...campaignBody(), pad: 'p'.repeat(bytes - frame.length) })
    }
    const exact = sized(64 * 1024)
    expect(Buffer.byteLength(exact)).toBe(64 * 1024)
    const atLimit = await call('POST', '/v1/campaigns', { key: ACME.skTest, body: exact })
    expect(expectErrorBody(atLimit, 400, 'parameter_unknown').param).toBe('pad')
    const over = sized(64 * 1024 + 1)
    expect(Buffer.byteLength(over)).toBe(64 * 1024 + 1)
    expectErrorBody(
      await call('POST', '/v1/campaigns', { key: ACME.skTest, body: over }),
      413,
      'body_too_large',
    )
  })

  test('an oversized body creates nothing', async () => {
    const { call } = setup()
    const body = { ...campaignBody('Huge'), description: 'd'.repeat(70 * 1024) }
    await call('POST', '/v1/campaigns', { key: ACME.skTest, body })
    const listed = await call<{ total: number }>('GET', '/v1/campaigns', { key: ACME.skTest })
    expect(listed.body.total).toBe(1)
  })

  test.each([
    ['POST', '/v1/campaigns', 'text/plain'],
    ['POST', '/v1/campaigns', 'application/x-www-form-urlencoded'],
    ['POST', '/v1/campaigns', 'multipart/form-data; boundary=xyz'],
    ['POST', '/v1/campaigns', 'application/xml'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, 'text/plain'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, 'application/x-www-form-urlencoded'],
    ['POST', '/v1/links', 'text/plain'],
    // With an Authorization header this is not the beacon form.
    ['POST', '/v1/events', 'text/plain'],
    ['POST', '/v1/events', 'application/x-www-form-urlencoded'],
  ])('%s %s as %s is 415 unsupported_media_type', async (method, path, type) => {
    const { call } = setup()
    const sk = path.startsWith('/v1/campaigns')
    const body =
      method === 'PATCH'
        ? { status: 'paused' }
        : path === '/v1/links'
          ? { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' }
          : path === '/v1/events'
            ? { events: [{ id: 'evt_media_001', type: 'signup', visitorId: 'visitor_0001' }] }
            : campaignBody('Wrong media type')
    const answer = await call(method, path, {
      key: sk ? ACME.skTest : ACME.pkTest,
      body: JSON.stringify(body),
      headers: { 'Content-Type': type },
    })
    expectErrorBody(answer, 415, 'unsupported_media_type')
    const shown = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(shown.body.status).toBe('active')
  })

  test('a POST body without any Content-Type is 415', async () => {
    const { service, call } = setup()
    // A byte body, so that nothing fills in a Content-Type on the way.
    const response = await service.app.request(
      '/v1/campaigns',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${ACME.skTest}` },
        body: new TextEncoder().encode(JSON.stringify(campaignBody())),
      },
      { incoming: { socket: { remoteAddress: '198.51.100.7' } } },
    )
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    }
    expectErrorBody(answer, 415, 'unsupported_media_type')
    const listed = await call<{ total: number }>('GET', '/v1/campaigns', { key: ACME.skTest })
    expect(listed.body.total).toBe(1)
  })

  test.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
  ])('Content-Type %s is accepted as JSON', async (type) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/campaigns', {
      key: ACME.skTest,
      body: JSON.stringify(campaignBody()),
      headers: { 'Content-Type': type },
    })
    expect(answer.status).toBe(201)
  })

  test.each([
    ['POST', '/v1/campaigns', '{'],
    ['POST', '/v1/campaigns', '{"name": }'],
    ['POST', '/v1/campaigns', "{'name':'x'}"],
    ['POST', '/v1/campaigns', ''],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, '{"status":"paused"'],
    ['POST', '/v1/links', '{"campaignId":'],
    ['POST', '/v1/events', '{"events":[{]}'],
  ])('%s %s with body %j is 400 invalid_json', async (method, path, raw) => {
    const { call } = setup()
    const key = path === '/v1/links' || path === '/v1/events' ? ACME.pkTest : ACME.skTest
    expectErrorBody(await call(method, path, { key, body: raw }), 400, 'invalid_json')
    const shown = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(shown.body.status).toBe('active')
  })
})

describe('CORS', () => {
  test.each([
    ['/v1/campaigns', 'GET'],
    ['/v1/campaigns', 'POST'],
    [`/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, 'PATCH'],
    ['/v1/links', 'POST'],
    ['/v1/links/abcdefgh12', 'GET'],
    ['/v1/events', 'POST'],
  ])('a preflight for %s (%s) answers 204 without a key', async (path, method) => {
    const { call } = setup()
    const answer = await call('OPTIONS', path, {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(answer.status).toBe(204)
    const allowOrigin = answer.headers.get('access-control-allow-origin')
    expect(allowOrigin === '*' || allowOrigin === ORIGIN).toBe(true)
    const allowHeaders = splitList(answer.headers.get('access-control-allow-headers'))
    expect(allowHeaders).toContain('authorization')
    expect(allowHeaders).toContain('content-type')
    expect(answer.headers.get('access-control-max-age')).toBe('86400')
    const allowMethods = splitList(answer.headers.get('access-control-allow-methods')).map((m) =>
      m.toUpperCase(),
    )
    expect(allowMethods).toContain(method)
  })

  test('every /v1 answer, success or error, is readable cross-origin and exposes the rate headers', async () => {
    const { call, service, clock } = setup()
    const headers = { Origin: ORIGIN }
    const sk = ACME.skTest
    const camp = `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`
    const rolled = ACME.pkLive
    service.rollKey(rolled)
    clock.advance(DAY)
    const answers: Array<[string, Answer]> = [
      ['200 list', await call('GET', '/v1/campaigns', { key: sk, headers })],
      [
        '201 create',
        await call('POST', '/v1/campaigns', { key: sk, headers, body: campaignBody() }),
      ],
      ['200 patch', await call('PATCH', camp, { key: sk, headers, body: { name: 'X' } })],
      ['400', await call('POST', '/v1/campaigns', { key: sk, headers, body: {} })],
      ['400 json', await call('POST', '/v1/campaigns', { key: sk, headers, body: '{' })],
      ['401 missing', await call('GET', '/v1/campaigns', { headers })],
      ['401 invalid', await call('GET', '/v1/campaigns', { key: 'sk_test_nobody', headers })],
      ['401 expired', await call('GET', '/v1/campaigns', { key: rolled, headers })],
      [
        '403',
        await call('POST', '/v1/campaigns', { key: ACME.pkTest, headers, body: campaignBody() }),
      ],
      [
        '404 resource',
        await call('GET', '/v1/campaigns/camp_AAAAAAAAAAAAAAAAAAAA', { key: sk, headers }),
      ],
      ['404 route', await call('GET', '/v1/nope', { key: sk, headers })],
      ['405', await call('DELETE', camp, { key: sk, headers })],
      [
        '413',
        await call('POST', '/v1/campaigns', { key: sk, headers, body: 'x'.repeat(65 * 1024) }),
      ],
      [
        '415',
        await call('POST', '/v1/campaigns', {
          key: sk,
          body: '{}',
          headers: { ...headers, 'Content-Type': 'text/plain' },
        }),
      ],
    ]
    const limited = setup({ pkRateLimit: 1 })
    await limited.call('GET', '/v1/campaigns', { key: ACME.pkTest, headers })
    const tooMany = await limited.call('GET', '/v1/campaigns', { key: ACME.pkTest, headers })
    expect(tooMany.status).toBe(429)
    expect(tooMany.headers.get('retry-after')).toMatch(/^\d+$/)
    answers.push(['429', tooMany])
    const broken = setup({ store: explodingStore() })
    const failed = await broken.call('GET', '/v1/campaigns/camp_explodeExplode123', {
      key: sk,
      headers,
    })
    expect(failed.status).toBe(500)
    answers.push(['500', failed])

    for (const [label, answer] of answers) expectReadableCrossOrigin(answer, label)
  })

  // CONTRACT.md "CORS": "every answer exposes Retry-After, RateLimit-Limit, ...". A widget
  // pointed at a wrong base address should see the 404, not an opaque CORS failure.
  test('a 404 outside /v1 is readable cross-origin too', async () => {
    const { call } = setup()
    const answer = await call('GET', '/campaigns', {
      key: ACME.pkTest,
      headers: { Origin: ORIGIN },
    })
    expect(answer.status).toBe(404)
    expectReadableCrossOrigin(answer, '404 outside /v1')
  })
})
