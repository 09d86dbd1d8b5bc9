// Contract tests for the error body (its exact shape and the type of each status, no stack trace,
// internal message or key in it) and for routing errors (404 route_missing, 405 with Allow); the
// seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import { ACME, expectErrorBody, explodingStore, GLOBEX, splitList } from './contract-checks.ts'
import { type Answer, campaignBody, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, setup } from './helpers.ts'

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
