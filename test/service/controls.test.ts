// Decisions made after review: cursors of public keys, an empty Authorization header, and the
// demo page's controls.
import { describe, expect, test } from 'vitest'
import type { PublicCampaign } from '../../demo/service/schemas.ts'
import { createCampaign, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, setup } from './helpers.ts'

const SK = DEMO_KEYS.acme.skTest
const PK = DEMO_KEYS.acme.pkTest

describe('public keys and cursors', () => {
  test('a public key cannot use a paused campaign as a cursor to learn that it exists', async () => {
    const { call } = setup()
    const id = await createCampaign(call, { name: 'Hidden' })
    await call('PATCH', `/v1/campaigns/${id}`, { key: SK, body: { status: 'paused' } })
    const paused = await call('GET', `/v1/campaigns?startingAfter=${id}`, { key: PK })
    const unknown = await call('GET', '/v1/campaigns?startingAfter=camp_0000000000000000', {
      key: PK,
    })
    expect(paused.status).toBe(400)
    expect(errorOf(paused)).toEqual(errorOf(unknown))
    // The secret key still pages from it.
    const page = await call<{ data: PublicCampaign[] }>(
      'GET',
      `/v1/campaigns?startingAfter=${id}`,
      { key: SK },
    )
    expect(page.body.data.map((c) => c.id)).toEqual([DEMO_CAMPAIGNS.acme])
  })

  test('an empty Authorization header is a missing key, not an invalid one', async () => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { headers: { Authorization: '' } })
    expect(answer.status).toBe(401)
    expect(errorOf(answer).code).toBe('missing_api_key')
  })
})

describe('/demo-api controls', () => {
  test('are absent unless the service is started with them', async () => {
    const { call } = setup()
    expect((await call('POST', '/demo-api/reset')).status).toBe(404)
  })

  test('move the clock forward, and the service acts on it', async () => {
    const { call, clock } = setup({ controls: true })
    const before = clock.now()
    const answer = await call<{ now: string }>('POST', '/demo-api/clock/advance', {
      body: { ms: DAY },
    })
    expect(answer.status).toBe(200)
    expect(Date.parse(answer.body.now)).toBe(before + DAY)
    const bad = await call('POST', '/demo-api/clock/advance', { body: { ms: -5 } })
    expect(errorOf(bad)).toMatchObject({ code: 'parameter_invalid', param: 'ms' })
  })

  test('roll a public key, never a secret one', async () => {
    const { call } = setup({ controls: true })
    const rolled = await call<{ key: string }>('POST', '/demo-api/keys/roll', { body: { key: PK } })
    expect(rolled.body.key).toMatch(/^pk_test_[A-Za-z0-9]{4,64}$/)
    expect((await call('GET', '/v1/campaigns', { key: rolled.body.key })).status).toBe(200)
    expect((await call('GET', '/v1/campaigns', { key: PK })).status).toBe(200)
    const secret = await call('POST', '/demo-api/keys/roll', { body: { key: SK } })
    expect(secret.status).toBe(400)
    expect(JSON.stringify(secret.body)).not.toMatch(/sk_test_[A-Za-z0-9]{5,}/)
  })

  test('reset brings back the demo data and forgets the rest', async () => {
    const { call } = setup({ controls: true })
    await call('PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: SK,
      body: { status: 'paused' },
    })
    expect((await call('POST', '/demo-api/reset')).status).toBe(200)
    const detail = await call<{ status: string }>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: SK,
    })
    expect(detail.body.status).toBe('active')
  })
})

describe('/demo-api fault injection', () => {
  test('the next N test-mode answers are 429 with the chosen Retry-After; live mode is untouched', async () => {
    const { call } = setup({ controls: true })
    const set = await call('POST', '/demo-api/faults', {
      body: { kind: 'rate-limit', count: 2, retryAfterSeconds: 7 },
    })
    expect(set.status).toBe(200)
    const live = await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acme.pkLive })
    expect(live.status).toBe(200)
    const first = await call('GET', '/v1/campaigns', { key: PK })
    const second = await call('GET', '/v1/campaigns', { key: PK })
    const third = await call('GET', '/v1/campaigns', { key: PK })
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200])
    expect(first.headers.get('retry-after')).toBe('7')
    expect(errorOf(first).code).toBe('rate_limited')
    expect((await call<{ fault: unknown }>('GET', '/demo-api/faults')).body.fault).toBeNull()
  })

  test('503s until cleared', async () => {
    const { call } = setup({ controls: true })
    await call('POST', '/demo-api/faults', { body: { kind: 'unavailable', count: 5 } })
    expect((await call('GET', '/v1/campaigns', { key: PK })).status).toBe(503)
    await call('DELETE', '/demo-api/faults')
    expect((await call('GET', '/v1/campaigns', { key: PK })).status).toBe(200)
  })

  test('refuses a plan it cannot carry out', async () => {
    const { call } = setup({ controls: true })
    const bad = await call('POST', '/demo-api/faults', {
      body: { kind: 'rate-limit', count: 0, retryAfterSeconds: 7 },
    })
    expect(errorOf(bad)).toMatchObject({ code: 'parameter_invalid', param: 'count' })
  })
})

describe('/demo-api request log', () => {
  test('lists answered requests with status and key kind, never the key', async () => {
    const { call } = setup({ controls: true })
    await call('GET', '/v1/campaigns', { key: PK })
    await call('GET', '/v1/campaigns', { key: 'pk_test_nosuchkey' })
    await call('POST', '/v1/events', {
      key: PK,
      body: {
        events: [{ id: 'evt_log00001', type: 'signup', visitorId: 'vis_log00001', userId: 'u' }],
      },
    })
    const log = await call<{
      requests: Array<{ seq: number; status: number; key: string; summary: string }>
    }>('GET', '/demo-api/requests')
    expect(log.body.requests.map((r) => [r.status, r.key])).toEqual([
      [200, 'pk_test'],
      [401, 'none'],
      [200, 'pk_test'],
    ])
    expect(log.body.requests[2]?.summary).toBe('evt_log00001 accepted')
    expect(JSON.stringify(log.body)).not.toContain('pk_test_acme')
    const since = log.body.requests[1]?.seq ?? 0
    const later = await call<{ requests: unknown[] }>('GET', `/demo-api/requests?since=${since}`)
    expect(later.body.requests).toHaveLength(1)
  })
})

describe('/demo-api campaign administration', () => {
  test('creates, edits and pauses a campaign with the secret key held on the server', async () => {
    const { call } = setup({ controls: true })
    const created = await call<{ id: string }>('POST', '/demo-api/admin/globex/test/campaigns', {
      body: {
        name: 'QA spring',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 3, currency: 'EUR' },
        referredReward: { type: 'credit', amount: 4, currency: 'EUR' },
      },
    })
    expect(created.status).toBe(201)
    const paused = await call('PATCH', `/demo-api/admin/globex/test/campaigns/${created.body.id}`, {
      body: { status: 'paused', referrerReward: { amount: 5 } },
    })
    expect(paused.status).toBe(200)
    const detail = await call<{ status: string; referrerReward: { amount: number } }>(
      'GET',
      `/v1/campaigns/${created.body.id}`,
      { key: DEMO_KEYS.globex.skTest },
    )
    expect(detail.body).toMatchObject({ status: 'paused', referrerReward: { amount: 5 } })
    const list = await call<{ data: unknown[] }>('GET', '/demo-api/admin/globex/test/campaigns')
    expect(list.body.data).toHaveLength(2)
    expect((await call('GET', '/demo-api/admin/initech/test/campaigns')).status).toBe(400)
  })

  test('neither uses up injected faults nor shows in the request log: they are not the widget', async () => {
    const { call } = setup({ controls: true })
    await call('POST', '/demo-api/faults', {
      body: { kind: 'rate-limit', count: 1, retryAfterSeconds: 3 },
    })
    const list = await call('GET', '/demo-api/admin/acme/test/campaigns')
    expect(list.status).toBe(200)
    const detail = await call('GET', `/demo-api/admin/acme/test/campaigns/${DEMO_CAMPAIGNS.acme}`)
    expect(detail.status).toBe(200)
    expect((await call('GET', '/v1/campaigns', { key: PK })).status).toBe(429)
    const log = await call<{ requests: Array<{ path: string; status: number }> }>(
      'GET',
      '/demo-api/requests',
    )
    expect(log.body.requests.map((r) => [r.path, r.status])).toEqual([['/v1/campaigns', 429]])
  })
})

describe('/demo-api user tokens', () => {
  test('mints a token for the demo user on the service clock, which the service accepts', async () => {
    const { call, clock } = setup({ controls: true })
    clock.advance(31 * DAY) // the demo's clock moved: the token follows it
    const minted = await call<{ token: string; userId: string; expiresAt: string }>(
      'POST',
      '/demo-api/admin/acme/test/user-token',
      { body: { userId: 'user_123', expiresInSeconds: 60 } },
    )
    expect(minted.status).toBe(200)
    expect(minted.body.userId).toBe('user_123')
    expect(minted.body.expiresAt).toBe(
      new Date(Math.floor(clock.now() / 1000) * 1000 + 60_000).toISOString(),
    )
    const campaign = await createCampaign(call, { requireUserToken: true })
    const link = await call('POST', '/v1/links', {
      key: PK,
      body: { campaignId: campaign, referrerId: 'user_123', userToken: minted.body.token },
    })
    expect(link.status).toBe(201)
  })

  test.each([
    [{ userId: 'not ok' }, 'userId'],
    [{ userId: 'u', expiresInSeconds: 86_401 }, 'expiresInSeconds'],
    [{ userId: 'u', secretKey: SK }, 'secretKey'],
  ])('refuses %j with a 400 naming %s', async (body, param) => {
    const { call } = setup({ controls: true })
    const answer = await call('POST', '/demo-api/admin/acme/test/user-token', { body })
    expect(answer.status).toBe(400)
    expect(errorOf(answer).param).toBe(param)
  })
})

describe('bodies of unknown length (chunked)', () => {
  const stream = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text)
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192))
        controller.close()
      },
    })
  const post = (service: ReturnType<typeof setup>['service'], text: string) =>
    service.app.request('/v1/events', {
      method: 'POST',
      headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/json' },
      body: stream(text),
      duplex: 'half',
    } as RequestInit)

  test('are read and answered like any other', async () => {
    const { service } = setup()
    const answer = await post(
      service,
      '{"events":[{"id":"evt_chunk001","type":"signup","visitorId":"vis_chunk001","userId":"u"}]}',
    )
    expect(answer.status).toBe(200)
  })

  test('are refused with 413 once they grow past 64 KiB', async () => {
    const { service } = setup()
    const answer = await post(service, `{"events":[],"pad":"${'x'.repeat(70_000)}"}`)
    expect(answer.status).toBe(413)
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('body_too_large')
  })
})
