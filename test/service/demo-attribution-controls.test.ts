// The demo page's controls for rewards on purchase: the reward-trigger switch (a demo control: the
// interface fixes rewardTrigger at creation) and the purchase the dev server records as the
// shop's backend, with recordPurchase of the server entry and the secret key held on the server.
import { describe, expect, test } from 'vitest'
import type { Campaign, Link, PublicCampaign } from '../../demo/service/schemas.ts'
import { recordSitePurchase } from '../../demo/service/site-backend.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, setup } from './helpers.ts'

const { pkTest: PK, skTest: SK } = DEMO_KEYS.acme
const SEEDED = DEMO_CAMPAIGNS.acme
const TRIGGER = `/demo-api/admin/acme/test/campaigns/${SEEDED}/trigger`
const PURCHASES = '/demo-api/admin/acme/test/purchases'

type Call = ReturnType<typeof setup>['call']

const order = (userId: string, orderId: string) => ({
  userId,
  orderId,
  amount: 49.9,
  currency: 'USD',
})

async function stats(call: Call) {
  const answer = await call<Campaign>('GET', `/v1/campaigns/${SEEDED}`, { key: SK })
  return answer.body.stats
}

let serial = 0
/** A visitor through user_123's link who signs up as `userId`, in the page (public key). */
async function referredSignup(call: Call, userId: string) {
  const link = await call<Link>('POST', '/v1/links', {
    key: PK,
    body: { campaignId: SEEDED, referrerId: 'user_123' },
  })
  const visitorId = `visitor_${userId}`
  const id = () => `evt_demo_${String(++serial).padStart(6, '0')}`
  const events = [
    { id: id(), type: 'click', code: link.body.code, visitorId },
    { id: id(), type: 'signup', visitorId, userId },
  ]
  const answer = await call('POST', '/v1/events', { key: PK, body: { events } })
  expect(answer.status).toBe(200)
}

describe('/demo-api reward-trigger switch', () => {
  test('switches the seeded campaign to purchase and back; the public view follows', async () => {
    const { call, clock } = setup({ controls: true })
    const before = await call<Campaign>('GET', `/v1/campaigns/${SEEDED}`, { key: SK })
    clock.advance(1000)
    const switched = await call<{ id: string; rewardTrigger: string; updatedAt: string }>(
      'POST',
      TRIGGER,
      { body: { rewardTrigger: 'purchase' } },
    )
    expect(switched.status).toBe(200)
    expect(switched.body).toEqual({
      id: SEEDED,
      rewardTrigger: 'purchase',
      updatedAt: new Date(clock.now()).toISOString(),
    })
    expect(switched.body.updatedAt > before.body.updatedAt).toBe(true)
    const seen = await call<PublicCampaign>('GET', `/v1/campaigns/${SEEDED}`, { key: PK })
    expect(seen.body.rewardTrigger).toBe('purchase')

    // The same value again changes nothing, updatedAt included.
    clock.advance(1000)
    const again = await call<{ updatedAt: string }>('POST', TRIGGER, {
      body: { rewardTrigger: 'purchase' },
    })
    expect(again.body.updatedAt).toBe(switched.body.updatedAt)

    await call('POST', TRIGGER, { body: { rewardTrigger: 'signup' } })
    const back = await call<PublicCampaign>('GET', `/v1/campaigns/${SEEDED}`, { key: PK })
    expect(back.body.rewardTrigger).toBe('signup')
  })

  test('leaves the interface as it is: a PATCH of rewardTrigger is still refused', async () => {
    const { call } = setup({ controls: true })
    const patched = await call('PATCH', `/v1/campaigns/${SEEDED}`, {
      key: SK,
      body: { rewardTrigger: 'purchase' },
    })
    expect(patched.status).toBe(400)
    expect(errorOf(patched)).toMatchObject({
      code: 'parameter_not_updatable',
      param: 'rewardTrigger',
    })
  })

  test.each([
    [TRIGGER, { rewardTrigger: 'refund' }, 400, 'rewardTrigger'],
    [TRIGGER, { rewardTrigger: 'purchase', name: 'x' }, 400, 'name'],
    [TRIGGER.replace('acme', 'initech'), { rewardTrigger: 'purchase' }, 400, 'org'],
    // Another organization's campaign is no campaign here.
    [TRIGGER.replace(SEEDED, DEMO_CAMPAIGNS.globex), { rewardTrigger: 'purchase' }, 404, 'id'],
  ])('%s with %j: %i naming %s', async (path, body, status, param) => {
    const { call } = setup({ controls: true })
    const answer = await call('POST', path, { body })
    expect(answer.status).toBe(status)
    expect(errorOf(answer).param).toBe(param)
  })

  test('applies to the events after it: sign-ups stop converting, the first purchase converts', async () => {
    const { call } = setup({ controls: true })
    await referredSignup(call, 'friend_before')
    expect(await stats(call)).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })

    await call('POST', TRIGGER, { body: { rewardTrigger: 'purchase' } })
    await referredSignup(call, 'friend_after')
    expect(await stats(call)).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    // What was recorded stays: friend_before converted at sign-up, their purchase issues nothing.
    await call('POST', PURCHASES, { body: order('friend_before', 'order_before1') })
    expect(await stats(call)).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    await call('POST', PURCHASES, { body: order('friend_after', 'order_after1') })
    expect(await stats(call)).toMatchObject({ totalConversions: 2, totalRewardsIssued: 4 })
  })
})

describe('/demo-api purchases (the shop’s backend)', () => {
  test('records with recordPurchase: accepted, a second order issues nothing, the same order is duplicate', async () => {
    const { call } = setup({ controls: true })
    await call('POST', TRIGGER, { body: { rewardTrigger: 'purchase' } })
    await referredSignup(call, 'friend_1')
    const first = await call<{ status: string; eventId: string; orderId: string }>(
      'POST',
      PURCHASES,
      { body: order('friend_1', 'order_0001') },
    )
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      status: 'accepted',
      // The event id recordPurchase derives from the order id.
      eventId: expect.stringMatching(/^pu_[A-Za-z0-9_-]{43}$/),
      orderId: 'order_0001',
    })
    expect(await stats(call)).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })

    const second = await call<{ status: string }>('POST', PURCHASES, {
      body: order('friend_1', 'order_0002'),
    })
    expect(second.body.status).toBe('accepted')
    const repeated = await call<{ status: string; eventId: string }>('POST', PURCHASES, {
      body: { ...order('friend_1', 'order_0001'), amount: 5 },
    })
    expect(repeated.body).toMatchObject({ status: 'duplicate', eventId: first.body.eventId })
    expect(await stats(call)).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  })

  test('goes through /v1/events with the secret key: in the request log, never in an answer', async () => {
    const { call } = setup({ controls: true })
    const answer = await call('POST', PURCHASES, { body: order('friend_1', 'order_0001') })
    const log = await call<{ requests: Array<{ path: string; key: string; summary: string }> }>(
      'GET',
      '/demo-api/requests',
    )
    expect(log.body.requests).toEqual([
      expect.objectContaining({
        path: '/v1/events',
        key: 'sk_test',
        summary: expect.stringMatching(/^pu_\S+ accepted$/),
      }),
    ])
    expect(JSON.stringify(answer.body)).not.toContain(SK)
  })

  test('an armed fault answers it too, and recordPurchase tries again', async () => {
    const { call } = setup({ controls: true })
    await call('POST', '/demo-api/faults', { body: { kind: 'unavailable', count: 1 } })
    const answer = await call<{ status: string }>('POST', PURCHASES, {
      body: order('friend_1', 'order_0001'),
    })
    expect(answer.body.status).toBe('accepted')
    const log = await call<{ requests: Array<{ status: number }> }>('GET', '/demo-api/requests')
    expect(log.body.requests.map((request) => request.status)).toEqual([503, 200])
  })

  test.each([
    [{ ...order('friend_1', 'order_0001'), amount: 0 }, 'amount', /amount must be a positive/],
    [order('friend_1', 'order 1'), 'orderId', /orderId must be 1-128/],
    [{ ...order('friend_1', 'order_0001'), currency: 'usd' }, 'currency', /must be an ISO 4217/],
    [order('not ok', 'order_0001'), 'userId', /userId must be 1-128/],
  ])('%j: 400 naming %s in recordPurchase’s words', async (body, param, message) => {
    const { call } = setup({ controls: true })
    const answer = await call('POST', PURCHASES, { body })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param })
    expect(errorOf(answer).message).toMatch(message)
    // Nothing reached the service.
    const log = await call<{ requests: unknown[] }>('GET', '/demo-api/requests')
    expect(log.body.requests).toEqual([])
  })

  test('refuses a body that is not a purchase, the secret key included', async () => {
    const { call } = setup({ controls: true })
    const answer = await call('POST', PURCHASES, {
      body: { ...order('friend_1', 'order_0001'), secretKey: SK },
    })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_unknown', param: 'secretKey' })
  })
})

describe('recordSitePurchase without a verdict', () => {
  const purchase = order('friend_1', 'order_0001')
  const answer = (status: number, body: unknown) => () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    })
  const record = (inProcess: () => Response) =>
    recordSitePurchase({
      inProcess,
      apiBase: 'http://localhost:5173',
      secretKey: SK,
      purchase,
      env: {},
    })

  test('a service that knows only the seed’s interface: 502 record_purchase_unsupported', async () => {
    const seedOnly = (url: string, init: RequestInit) => {
      const { events } = JSON.parse(String(init.body)) as { events: Array<{ id: string }> }
      expect(url).toBe('http://localhost:5173/v1/events')
      return answer(200, {
        results: [
          {
            id: events[0]?.id,
            status: 'rejected',
            error: { code: 'parameter_invalid', message: 'type must be "click" or "signup".' },
          },
        ],
      })()
    }
    const failure = await recordSitePurchase({
      inProcess: seedOnly,
      apiBase: 'http://localhost:5173',
      secretKey: SK,
      purchase,
      env: {},
    }).catch((error: unknown) => error)
    expect(failure).toMatchObject({
      status: 502,
      code: 'record_purchase_unsupported',
      message: expect.stringMatching(/the service does not take purchases/),
    })
  })

  test('a refused key: 502 record_purchase_refused, without the key in the message', async () => {
    const failure = await record(
      answer(401, {
        error: { type: 'authentication_error', code: 'invalid_api_key', message: 'Unknown key.' },
      }),
    ).catch((error: unknown) => error)
    expect(failure).toMatchObject({ status: 502, code: 'record_purchase_refused' })
    expect((failure as Error).message).toMatch(/401 invalid_api_key/)
    expect((failure as Error).message).not.toContain(SK)
  })
})
