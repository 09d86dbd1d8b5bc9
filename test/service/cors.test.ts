// Contract tests for CORS: preflights without a key, and every answer, success or error, readable
// cross-origin with the rate headers exposed; the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import { ACME, explodingStore, splitList } from './contract-checks.ts'
import { type Answer, campaignBody, DAY, DEMO_CAMPAIGNS, setup } from './helpers.ts'

const ORIGIN = 'https://shop.example'

const EXPOSED = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']

/** What a browser needs to read an answer cross-origin, and the headers the widget reads. */
function expectReadableCrossOrigin(answer: Answer, label: string) {
  const allowOrigin = answer.headers.get('access-control-allow-origin')
  expect(allowOrigin === '*' || allowOrigin === ORIGIN, `${label}: Allow-Origin`).toBe(true)
  const exposed = splitList(answer.headers.get('access-control-expose-headers'))
  for (const header of EXPOSED) expect(exposed, `${label}: ${header} exposed`).toContain(header)
}

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
