// Purchases (extension, CONTRACT.md "Purchases"): purchase campaigns, who may record a purchase,
// the order id as idempotency key, and the per-event validation of a purchase.

import { describe, expect, it } from 'vitest'
import type { Campaign, EventResult } from '../../demo/service/schemas.ts'
import { DEMO_KEYS, errorOf, setup } from './helpers.ts'
import { NOTHING, purchase, purchaseWorld } from './purchase-world.ts'

const { pkTest, skTest, skLive } = DEMO_KEYS.acme

describe('a purchase campaign', () => {
  it('is created with rewardTrigger "purchase", which every key sees and none can change', async () => {
    const { call, campaignId } = await purchaseWorld()
    const detail = await call<Campaign>('GET', `/v1/campaigns/${campaignId}`, { key: skTest })
    expect(detail.body).toMatchObject({ rewardTrigger: 'purchase', stats: NOTHING })
    const publicView = await call<Campaign>('GET', `/v1/campaigns/${campaignId}`, { key: pkTest })
    expect(publicView.body.rewardTrigger).toBe('purchase')

    const patched = await call('PATCH', `/v1/campaigns/${campaignId}`, {
      key: skTest,
      body: { rewardTrigger: 'signup' },
    })
    expect(patched.status).toBe(400)
    expect(errorOf(patched)).toMatchObject({
      code: 'parameter_not_updatable',
      param: 'rewardTrigger',
    })
  })

  it.each(['purchases', 'Purchase', 'order', ''])(
    'rewardTrigger %j is 400 parameter_invalid naming it',
    async (rewardTrigger) => {
      const { call } = setup()
      const answer = await call('POST', '/v1/campaigns', {
        key: skTest,
        body: {
          name: 'x',
          rewardTrigger,
          referrerReward: { type: 'credit', amount: 1 },
          referredReward: { type: 'credit', amount: 1 },
        },
      })
      expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param: 'rewardTrigger' })
    },
  )
})

describe('recording a purchase', () => {
  it('with the secret key: accepted', async () => {
    const { buy } = await purchaseWorld()
    expect(await buy(purchase('user_bob', 'order_1001'))).toEqual(['accepted'])
  })

  it('with a public key: 403 secret_key_required for the whole request, nothing in it counts', async () => {
    const { send, link, stats, summary } = await purchaseWorld()
    const code = await link('alice')
    const click = { id: 'evt_click_0001', type: 'click', code, visitorId: 'visitor_bob' }
    const answer = await send([click, purchase('user_bob', 'order_1001')], pkTest)
    expect(answer.status).toBe(403)
    expect(errorOf(answer)).toEqual({
      type: 'permission_error',
      code: 'secret_key_required',
      message: expect.stringContaining('secret key'),
      param: 'events.1.type',
    })
    expect(await stats()).toEqual(NOTHING)
    expect((await summary(code)).clicks).toBe(0)
  })

  it('in the beacon form (a public key in the body): 403 secret_key_required', async () => {
    const { call } = await purchaseWorld()
    const answer = await call('POST', '/v1/events', {
      body: JSON.stringify({ key: pkTest, events: [purchase('user_bob', 'order_1001')] }),
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(answer.status).toBe(403)
    expect(errorOf(answer).code).toBe('secret_key_required')
  })
})

describe('the order id', () => {
  it('counts once: the same event again, or another event for the same order, is a duplicate', async () => {
    const { buy, link, referred, stats } = await purchaseWorld()
    await referred(await link('alice'), 'user_bob')
    const first = purchase('user_bob', 'order_1001')
    expect(await buy(first)).toEqual(['accepted'])
    const converted = await stats()
    expect(converted.totalConversions).toBe(1)

    expect(await buy(first)).toEqual(['duplicate'])
    expect(await buy(purchase('user_bob', 'order_1001', { amount: 999 }))).toEqual(['duplicate'])
    expect(await buy(purchase('user_carol', 'order_1001'))).toEqual(['duplicate'])
    expect(await stats()).toEqual(converted)
  })

  it('is per organization and mode: the same order id in live mode is another order', async () => {
    const { send, buy } = await purchaseWorld()
    expect(await buy(purchase('user_bob', 'order_1001'))).toEqual(['accepted'])
    const live = await send([purchase('user_bob', 'order_1001')], skLive)
    expect(live.body.results.map((result) => result.status)).toEqual(['accepted'])
  })

  it('is not taken by a rejected purchase', async () => {
    const { buy } = await purchaseWorld()
    expect(await buy(purchase('user_bob', 'order_1001', { amount: 0 }))).toEqual(['rejected'])
    expect(await buy(purchase('user_bob', 'order_1001'))).toEqual(['accepted'])
  })
})

describe('a malformed purchase is rejected, naming the field in param', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['no userId', { userId: undefined }, 'parameter_missing', 'userId'],
    ['a userId with a space', { userId: 'bob smith' }, 'parameter_invalid', 'userId'],
    ['no orderId', { orderId: undefined }, 'parameter_missing', 'orderId'],
    ['an empty orderId', { orderId: '' }, 'parameter_invalid', 'orderId'],
    ['an orderId with a slash', { orderId: 'A/1' }, 'parameter_invalid', 'orderId'],
    ['an orderId of 129 characters', { orderId: 'o'.repeat(129) }, 'parameter_invalid', 'orderId'],
    ['no amount', { amount: undefined }, 'parameter_missing', 'amount'],
    ['an amount of 0', { amount: 0 }, 'parameter_invalid', 'amount'],
    ['a negative amount', { amount: -5 }, 'parameter_invalid', 'amount'],
    ['an amount as text', { amount: '10' }, 'parameter_invalid', 'amount'],
    ['a lower-case currency', { currency: 'eur' }, 'parameter_invalid', 'currency'],
    ['a four-letter currency', { currency: 'EURO' }, 'parameter_invalid', 'currency'],
    ['no currency', { currency: undefined }, 'parameter_missing', 'currency'],
    ['a code without visitorId', { code: 'AbCdEf1234' }, 'parameter_missing', 'visitorId'],
    ['an unknown field', { coupon: 'SPRING' }, 'parameter_unknown', 'coupon'],
  ])('%s: %s', async (_what, change, code, param) => {
    const { send, stats } = await purchaseWorld()
    const event = { ...purchase('user_bob', 'order_x'), ...change }
    // JSON leaves out the fields set to undefined: those are missing.
    const answer = await send([JSON.parse(JSON.stringify(event))], skTest)
    expect(answer.status).toBe(200)
    const [result] = answer.body.results as [EventResult]
    expect(result).toMatchObject({ id: event.id, status: 'rejected', error: { code, param } })
    expect(result.error?.message).toContain(param)
    expect(await stats()).toEqual(NOTHING)
  })

  it('an amount of 1e400 (Infinity once parsed) is rejected', async () => {
    const { call } = await purchaseWorld()
    const event = JSON.stringify(purchase('user_bob', 'order_x')).replace('49.9', '1e400')
    const answer = await call<{ results: EventResult[] }>('POST', '/v1/events', {
      key: skTest,
      body: `{"events": [${event}]}`,
    })
    expect(answer.body.results[0]).toMatchObject({
      status: 'rejected',
      error: { param: 'amount' },
    })
  })

  it('an unknown type names the four the service takes', async () => {
    const { send } = await purchaseWorld()
    const answer = await send([{ ...purchase('user_bob', 'order_x'), type: 'return' }], skTest)
    expect(answer.body.results[0]?.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'type',
      message: 'type must be "click", "signup", "purchase" or "refund".',
    })
  })
})
