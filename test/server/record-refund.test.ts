// recordRefund (referral-widget/server, a service extension) against the local service,
// in-process, and what it sends: a refund of the order that made a conversion reverses it, once.
import { describe, expect, it, vi } from 'vitest'
import { RecordRefundError, recordPurchase, recordRefund } from '../../src/server.ts'
import { createCampaign } from '../service/helpers.ts'
import { virtualTime } from '../support/virtual-time.ts'
import { API, expectRefusedBeforeRequest, localService, neverAnswering } from './service-world.ts'

const REFUND = { orderId: 'A-1001', refundId: 're_1' }

async function world() {
  const local = localService()
  const campaignId = await createCampaign(local.call, { rewardTrigger: 'purchase' })
  const stats = () =>
    local.stats<{ totalConversions: number; reversedConversions: number }>(campaignId)
  /** alice's friend clicks, signs up as user-42 and buys order A-1001: one conversion. */
  const converted = async () => {
    const code = await local.linkCode(campaignId, 'alice')
    const visitorId = 'v_visitor_0001'
    await local.send([
      { id: 'e_click_1', type: 'click', code, visitorId },
      { id: 'e_signup_1', type: 'signup', code, visitorId, userId: 'user-42' },
    ])
    const order = { userId: 'user-42', orderId: 'A-1001', amount: 59.9, currency: 'EUR' }
    await local.time.drive(recordPurchase({ ...local.options, ...order }))
    expect((await stats()).totalConversions).toBe(1)
  }
  type Options = Parameters<typeof recordRefund>[0]
  const refund = (extra: Partial<Options> = {}) =>
    local.time.drive(recordRefund({ ...local.options, ...REFUND, ...extra }))
  return { ...local, stats, converted, refund }
}

/** A fetch that answers every event with `result`. */
function answering(result: (event: { id: string }) => object | Response) {
  return vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    const [event] = JSON.parse(String(init?.body)).events
    const answer = result(event)
    return answer instanceof Response ? answer : Response.json({ results: [answer] })
  })
}

describe('recordRefund against the local service', () => {
  it('a refund of the converting order: accepted, the conversion reversed; again: duplicate', async () => {
    const { converted, refund, stats } = await world()
    await converted()
    const first = await refund({ amount: 59.9, currency: 'EUR' })
    expect(first).toEqual({
      status: 'accepted',
      eventId: expect.stringMatching(/^rf_[A-Za-z0-9_-]{43}$/),
      orderId: 'A-1001',
      refundId: 're_1',
    })
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
    expect(await refund()).toEqual({ ...first, status: 'duplicate' })
    expect(await refund({ refundId: 're_2' })).toMatchObject({ status: 'accepted' })
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })

  it('a refund of an order the service never saw: accepted, nothing changes', async () => {
    const { converted, refund, stats } = await world()
    await converted()
    expect(await refund({ orderId: 'B-9' })).toMatchObject({ status: 'accepted' })
    expect(await stats()).toMatchObject({ totalConversions: 1, reversedConversions: 0 })
  })

  it('a key the service does not know: RecordRefundError "refused", once', async () => {
    const { refund, fetchSpy } = await world()
    await expect(refund({ secretKey: 'sk_test_nobody' })).rejects.toMatchObject({
      name: 'RecordRefundError',
      reason: 'refused',
      status: 401,
      attempts: 1,
      orderId: 'A-1001',
      refundId: 're_1',
    })
    expect(fetchSpy).toHaveBeenCalledTimes(1)
  })
})

describe('what recordRefund sends and how it reads the answer', () => {
  const options = { secretKey: 'sk_test_acme', apiBase: API, ...REFUND }

  it('the contract’s fields only; the event id from the refund id, not the order', async () => {
    const fetch = answering((event) => ({ id: event.id, status: 'accepted' }))
    const time = virtualTime()
    await time.drive(recordRefund({ ...options, amount: 10, currency: 'EUR', fetch }))
    await time.drive(recordRefund({ ...options, fetch }))
    await time.drive(recordRefund({ ...options, refundId: 're_2', fetch }))
    const [withAmount, same, other] = fetch.mock.calls.map(
      ([, init]) => JSON.parse(String(init?.body)).events[0],
    )
    expect(withAmount).toEqual({
      id: expect.stringMatching(/^rf_/),
      type: 'refund',
      orderId: 'A-1001',
      amount: 10,
      currency: 'EUR',
    })
    expect(same).toEqual({ id: withAmount.id, type: 'refund', orderId: 'A-1001' })
    expect(other.id).not.toBe(withAmount.id)
  })

  it('a service without refunds (the type refused): RecordRefundError "unsupported"', async () => {
    const fetch = answering((event) => ({
      id: event.id,
      status: 'rejected',
      error: { code: 'parameter_invalid', message: 'type must be…', param: 'type' },
    }))
    const failure = await virtualTime()
      .drive(recordRefund({ ...options, fetch }))
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RecordRefundError)
    expect(failure).toMatchObject({ reason: 'unsupported', refundId: 're_1' })
    expect((failure as Error).message).toMatch(/does not take refunds/)
  })

  it('one that refuses the whole request for an unknown field: "unsupported" too', async () => {
    const fetch = answering(() =>
      Response.json(
        { error: { type: 'invalid_request_error', code: 'parameter_unknown', message: 'x' } },
        { status: 400 },
      ),
    )
    await expect(virtualTime().drive(recordRefund({ ...options, fetch }))).rejects.toMatchObject({
      name: 'RecordRefundError',
      reason: 'unsupported',
      status: 400,
    })
  })

  it('no answer within timeoutMs: "timeout"', async () => {
    const time = virtualTime()
    const failure = await time
      .drive(
        recordRefund({
          ...options,
          fetch: neverAnswering(),
          timeoutMs: 2000,
          now: time.now,
          sleep: time.sleep,
        }),
      )
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'RecordRefundError', reason: 'timeout', attempts: 1 })
    expect(time.elapsed()).toBe(2000)
  })
})

describe('recordRefund refuses before any request', () => {
  const base = { secretKey: 'sk_test_acme', apiBase: API, ...REFUND }

  it.each([
    ['a public key', { secretKey: 'pk_test_acme' }, 'secretKey', /public key/],
    ['no orderId', { orderId: undefined }, 'orderId', /orderId must be/],
    ['an orderId with a slash', { orderId: 'A/1' }, 'orderId', /orderId must be/],
    ['no refundId', { refundId: undefined }, 'refundId', /refundId must be/],
    ['a refundId too long', { refundId: 'r'.repeat(129) }, 'refundId', /refundId must be/],
    ['an amount of 0', { amount: 0, currency: 'EUR' }, 'amount', /positive finite/],
    ['an amount without currency', { amount: 5 }, 'currency', /given with amount/],
    ['a currency without amount', { currency: 'EUR' }, 'amount', /without amount/],
    ['a lower-case currency', { amount: 5, currency: 'eur' }, 'currency', /ISO 4217/],
  ])('%s', (_what, change, option, message) =>
    expectRefusedBeforeRequest(
      (fetch) => recordRefund({ ...base, fetch, ...change } as never),
      option,
      message,
    ),
  )
})
