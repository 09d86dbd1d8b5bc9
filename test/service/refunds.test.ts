// Refunds (extension, CONTRACT.md "Refunds"): who may record one, and the per-event validation of
// a refund, as a purchase's. What a refund takes back: refund-reversals.test.ts.

import { describe, expect, it } from 'vitest'
import type { EventResult } from '../../demo/service/schemas.ts'
import { DEMO_KEYS, errorOf } from './helpers.ts'
import { CONVERTED, convertedWorld, purchase, refund } from './purchase-world.ts'

const { pkTest, skTest } = DEMO_KEYS.acme

describe('recording a refund', () => {
  it('with a public key: 403 secret_key_required for the whole request, nothing in it counts', async () => {
    const { send, stats, summary, code } = await convertedWorld()
    const click = { id: 'evt_click_0002', type: 'click', code, visitorId: 'visitor_carol' }
    const answer = await send([click, refund('order_1')], pkTest)
    expect(answer.status).toBe(403)
    expect(errorOf(answer)).toEqual({
      type: 'permission_error',
      code: 'secret_key_required',
      message: expect.stringContaining('refund needs a secret key'),
      param: 'events.1.type',
    })
    expect(await stats()).toEqual(CONVERTED)
    expect((await summary(code)).clicks).toBe(1)
  })

  it('in the beacon form (a public key in the body): 403 secret_key_required', async () => {
    const { call, stats } = await convertedWorld()
    const answer = await call('POST', '/v1/events', {
      body: JSON.stringify({ key: pkTest, events: [refund('order_1')] }),
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(answer.status).toBe(403)
    expect(errorOf(answer).code).toBe('secret_key_required')
    expect(await stats()).toEqual(CONVERTED)
  })

  it('a refund refused with a public key can be recorded with the secret key: the 403 took nothing', async () => {
    const { send, recordRefunds, stats } = await convertedWorld()
    const once = refund('order_1')
    expect((await send([once], pkTest)).status).toBe(403)
    expect(await recordRefunds(once)).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })

  it('takes occurredAt, informational, like every event', async () => {
    const { recordRefunds, stats } = await convertedWorld()
    const at = { occurredAt: '2026-01-15T12:00:00.000Z', amount: 49.9, currency: 'EUR' }
    expect(await recordRefunds(refund('order_1', at))).toEqual(['accepted'])
    expect((await stats()).reversedConversions).toBe(1)
  })
})

describe('a malformed refund is rejected, naming the field in param, and reverses nothing', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['no id', { id: undefined }, 'parameter_missing', 'id'],
    ['an id of 7 characters', { id: 're_1234' }, 'parameter_invalid', 'id'],
    ['no orderId', { orderId: undefined }, 'parameter_missing', 'orderId'],
    ['an empty orderId', { orderId: '' }, 'parameter_invalid', 'orderId'],
    ['an orderId with a slash', { orderId: 'order/1' }, 'parameter_invalid', 'orderId'],
    ['an orderId of 129 characters', { orderId: 'o'.repeat(129) }, 'parameter_invalid', 'orderId'],
    ['an amount of 0', { amount: 0 }, 'parameter_invalid', 'amount'],
    ['a negative amount', { amount: -5 }, 'parameter_invalid', 'amount'],
    ['an amount as text', { amount: '10' }, 'parameter_invalid', 'amount'],
    ['an amount of null', { amount: null }, 'parameter_invalid', 'amount'],
    ['a lower-case currency', { currency: 'eur' }, 'parameter_invalid', 'currency'],
    ['a four-letter currency', { currency: 'EURO' }, 'parameter_invalid', 'currency'],
    ['a bad occurredAt', { occurredAt: 'yesterday' }, 'parameter_invalid', 'occurredAt'],
    [
      'a userId (a refund names only its order)',
      { userId: 'user_bob' },
      'parameter_unknown',
      'userId',
    ],
    ['a code', { code: 'AbCdEf1234' }, 'parameter_unknown', 'code'],
    ['an unknown field', { reason: 'damaged' }, 'parameter_unknown', 'reason'],
  ])('%s: %s', async (_what, change, code, param) => {
    const { send, stats } = await convertedWorld()
    const event = { ...refund('order_1'), ...change }
    // JSON leaves out the fields set to undefined: those are missing.
    const answer = await send([JSON.parse(JSON.stringify(event))], skTest)
    expect(answer.status).toBe(200)
    const [result] = answer.body.results as [EventResult]
    expect(result).toMatchObject({ status: 'rejected', error: { code, param } })
    expect(result.error?.message).toContain(param)
    expect(await stats()).toEqual(CONVERTED)
  })

  it('an amount of 1e400 (Infinity once parsed) is rejected', async () => {
    const { call, stats } = await convertedWorld()
    const event = JSON.stringify(refund('order_1', { amount: 12.5 })).replace('12.5', '1e400')
    const answer = await call<{ results: EventResult[] }>('POST', '/v1/events', {
      key: skTest,
      body: `{"events": [${event}]}`,
    })
    expect(answer.body.results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'parameter_invalid', param: 'amount' },
    })
    expect(await stats()).toEqual(CONVERTED)
  })

  it('a rejected refund does not take its id: sent again well-formed, it is accepted and reverses', async () => {
    const { recordRefunds, stats } = await convertedWorld()
    const bad = refund('order_1', { amount: 0 })
    expect(await recordRefunds(bad)).toEqual(['rejected'])
    expect(await recordRefunds({ ...bad, amount: 10 })).toEqual(['accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })

  it('in a batch: the good events around it count', async () => {
    const { recordRefunds, buy, stats } = await convertedWorld()
    expect(await buy(purchase('user_bob', 'order_2'))).toEqual(['accepted'])
    const results = await recordRefunds(
      refund('order_2'),
      refund('order_1', { orderId: '' }),
      refund('order_1'),
    )
    expect(results).toEqual(['accepted', 'rejected', 'accepted'])
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })
})
