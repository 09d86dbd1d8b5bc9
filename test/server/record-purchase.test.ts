// recordPurchase (referral-widget/server, a service extension) against the local service,
// in-process: what a site's backend sees when it records its orders.
import { describe, expect, it, vi } from 'vitest'
import { RecordPurchaseError, recordPurchase } from '../../src/server.ts'
import { createCampaign } from '../service/helpers.ts'
import { virtualTime } from '../support/virtual-time.ts'
import {
  API,
  expectRefusedBeforeRequest,
  forbidden,
  inBrowserPage,
  localService,
  neverAnswering,
} from './service-world.ts'

const ORDER = { orderId: 'A-1001', amount: 59.9, currency: 'EUR' }

async function world() {
  const local = localService()
  const { service, call, time, fetchSpy, options, linkCode, send, captured } = local
  const campaignId = await createCampaign(call, { rewardTrigger: 'purchase' })
  type Options = Parameters<typeof recordPurchase>[0]
  const buy = (userId: string, extra: Partial<Options> = {}) =>
    time.drive(recordPurchase({ ...options, userId, ...ORDER, ...extra }))
  const stats = () =>
    local.stats<{ totalConversions: number; totalRewardsIssued: number }>(campaignId)
  /** A click on alice's link by `visitorId`, and (with `userId`) that visitor's sign-up. */
  const referred = async (visitorId: string, userId?: string) => {
    const code = await linkCode(campaignId, 'alice')
    const events: object[] = [{ id: `e_click_${visitorId}`, type: 'click', code, visitorId }]
    if (userId)
      events.push({ id: `e_signup_${visitorId}`, type: 'signup', code, visitorId, userId })
    const sent = await send(events)
    expect(sent.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
    return captured(code, visitorId)
  }
  return { service, time, fetchSpy, buy, stats, referred }
}

/** A fetch that answers every event with `result` (and records what was sent). */
function answering(result: (event: { id: string }) => object | Response) {
  const sent: Array<{ url: string; init: RequestInit | undefined }> = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), init })
    const [event] = JSON.parse(String(init?.body)).events
    const answer = result(event)
    return answer instanceof Response ? answer : Response.json({ results: [answer] })
  })
  return { fetch, sent }
}

describe('recordPurchase against the local service', () => {
  it("a referred user's first purchase: accepted, one conversion; the same order again: duplicate", async () => {
    const { buy, stats, referred } = await world()
    await referred('v_visitor_0001', 'user-42')
    const first = await buy('user-42')
    expect(first).toEqual({
      status: 'accepted',
      eventId: expect.stringMatching(/^pu_[A-Za-z0-9_-]{43}$/),
      orderId: 'A-1001',
    })
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(await buy('user-42')).toEqual({ ...first, status: 'duplicate' })
    expect(await buy('user-42', { orderId: 'A-1002' })).toMatchObject({ status: 'accepted' })
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  })

  it("a guest's purchase with the browser's attribution converts through that click", async () => {
    const { buy, stats, referred } = await world()
    const attribution = await referred('v_visitor_0002')
    expect(await buy('guest-7', { attribution })).toMatchObject({ status: 'accepted' })
    expect((await stats()).totalConversions).toBe(1)
  })

  it('an unknown key: RecordPurchaseError "refused", without retrying', async () => {
    const { buy, fetchSpy } = await world()
    await expect(buy('user-42', { secretKey: 'sk_test_nobody' })).rejects.toMatchObject({
      name: 'RecordPurchaseError',
      reason: 'refused',
      status: 401,
      code: 'invalid_api_key',
      attempts: 1,
      orderId: 'A-1001',
    })
    expect(fetchSpy).toHaveBeenCalledTimes(1)
  })

  it('a 503 then success: retried after the backoff', async () => {
    const { service, buy, time, fetchSpy } = await world()
    service.faults.set({ kind: 'unavailable', count: 1 })
    expect(await buy('user-42')).toMatchObject({ status: 'accepted' })
    expect(fetchSpy).toHaveBeenCalledTimes(2)
    expect(time.waits).toContain(500)
  })

  it('a service that stays at 503: RecordPurchaseError "timeout" within timeoutMs', async () => {
    const { service, buy, time, fetchSpy } = await world()
    service.faults.set({ kind: 'unavailable', count: 100 })
    const failure = await buy('user-42', { timeoutMs: 8000 }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RecordPurchaseError)
    expect(failure).toMatchObject({ reason: 'timeout', status: 503, orderId: 'A-1001' })
    expect((failure as RecordPurchaseError).attempts).toBe(fetchSpy.mock.calls.length)
    expect((failure as Error).message).toMatch(/purchase of order "A-1001" got no verdict/)
    expect(time.elapsed()).toBeLessThanOrEqual(8000)
  })

  it('a request that never answers is abandoned at timeoutMs', async () => {
    const time = virtualTime()
    const hanging = neverAnswering()
    const failure = await time
      .drive(
        recordPurchase({
          secretKey: 'sk_test_acme',
          apiBase: API,
          userId: 'user-42',
          ...ORDER,
          fetch: hanging,
          timeoutMs: 2000,
          now: time.now,
          sleep: time.sleep,
        }),
      )
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'RecordPurchaseError', reason: 'timeout', attempts: 1 })
    expect(time.elapsed()).toBe(2000)
  })
})

describe('what recordPurchase sends and how it reads the answer', () => {
  const options = { secretKey: 'sk_test_acme', apiBase: `${API}/referral/`, userId: 'user-42' }

  it('one purchase event with the secret key, to <apiBase>/v1/events; the event id from the order id', async () => {
    const time = virtualTime()
    const { fetch, sent } = answering((event) => ({ id: event.id, status: 'accepted' }))
    const attribution = {
      code: 'AbC123xy',
      visitorId: 'v_visitor_0006',
      capturedAt: '2026-03-01T11:00:00.000Z',
    }
    await time.drive(recordPurchase({ ...options, ...ORDER, attribution, fetch, now: time.now }))
    await time.drive(recordPurchase({ ...options, ...ORDER, userId: 'user-43', fetch }))
    await time.drive(recordPurchase({ ...options, ...ORDER, orderId: 'A-1002', fetch }))
    const [withAttribution, sameOrder, otherOrder] = sent.map(
      ({ init }) => JSON.parse(String(init?.body)).events[0],
    )
    expect(sent[0]?.url).toBe(`${API}/referral/v1/events`)
    expect(new Headers(sent[0]?.init?.headers).get('authorization')).toBe('Bearer sk_test_acme')
    expect(withAttribution).toEqual({
      id: expect.stringMatching(/^pu_[A-Za-z0-9_-]{43}$/),
      type: 'purchase',
      userId: 'user-42',
      orderId: 'A-1001',
      amount: 59.9,
      currency: 'EUR',
      code: 'AbC123xy',
      visitorId: 'v_visitor_0006',
      occurredAt: new Date(time.now()).toISOString(),
    })
    // Without an attribution, neither code nor visitor: the service knows the user's referral.
    expect(Object.keys(sameOrder).sort()).toEqual(
      ['amount', 'currency', 'id', 'occurredAt', 'orderId', 'type', 'userId'].sort(),
    )
    expect(sameOrder.id).toBe(withAttribution.id)
    expect(otherOrder.id).not.toBe(withAttribution.id)
  })

  it('a rejected purchase resolves with the service’s error, not a throw', async () => {
    const error = { code: 'order_closed', message: 'This order was refunded.', param: 'orderId' }
    const { fetch } = answering((event) => ({ id: event.id, status: 'rejected', error }))
    const result = await virtualTime().drive(recordPurchase({ ...options, ...ORDER, fetch }))
    expect(result).toMatchObject({ status: 'rejected', orderId: 'A-1001', error })
  })

  it('a service that takes only the seed interface: RecordPurchaseError "unsupported", saying so', async () => {
    // What such a service answers to an event type it does not know (CONTRACT.md "Events").
    const { fetch } = answering((event) => ({
      id: event.id,
      status: 'rejected',
      error: { code: 'parameter_invalid', message: 'type must be "click" or "signup".' },
    }))
    const failure = await virtualTime()
      .drive(recordPurchase({ ...options, ...ORDER, fetch }))
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RecordPurchaseError)
    expect(failure).toMatchObject({ reason: 'unsupported', code: 'parameter_invalid' })
    expect((failure as Error).message).toMatch(/the service does not take purchases/)
    expect((failure as Error).message).toContain('type must be "click" or "signup".')
  })

  it('a service with purchases that refuses one of its values: the result, rejected, naming it', async () => {
    const error = {
      code: 'parameter_invalid',
      message: 'XTS is not a currency.',
      param: 'currency',
    }
    const { fetch } = answering((event) => ({ id: event.id, status: 'rejected', error }))
    const result = await virtualTime().drive(recordPurchase({ ...options, ...ORDER, fetch }))
    expect(result).toMatchObject({ status: 'rejected', orderId: 'A-1001', error })
  })

  it('one that refuses the whole request for an unknown field: "unsupported" too', async () => {
    const { fetch } = answering(() =>
      Response.json(
        { error: { type: 'invalid_request_error', code: 'parameter_unknown', message: 'orderId' } },
        { status: 400 },
      ),
    )
    await expect(
      virtualTime().drive(recordPurchase({ ...options, ...ORDER, fetch })),
    ).rejects.toMatchObject({ reason: 'unsupported', status: 400, attempts: 1 })
  })
})

describe('recordPurchase refuses before any request', () => {
  const base = { secretKey: 'sk_test_acme', apiBase: API, userId: 'user-1', ...ORDER }

  it.each([
    ['a public key', { secretKey: 'pk_test_acme' }, 'secretKey', /public key \(pk_/],
    ['a malformed key', { secretKey: 'sk_acme' }, 'secretKey', /secret key such as sk_test_/],
    ['a relative apiBase', { apiBase: '/referral' }, 'apiBase', /absolute http\(s\) URL/],
    ['a userId with a space', { userId: 'a b' }, 'userId', /userId must be/],
    ['no orderId', { orderId: undefined }, 'orderId', /orderId must be/],
    ['an empty orderId', { orderId: '' }, 'orderId', /orderId must be/],
    ['an orderId with a slash', { orderId: 'A/1' }, 'orderId', /orderId must be/],
    ['an orderId too long', { orderId: 'o'.repeat(129) }, 'orderId', /orderId must be/],
    ['an amount of 0', { amount: 0 }, 'amount', /positive finite number/],
    ['a negative amount', { amount: -1 }, 'amount', /positive finite number/],
    ['an amount of NaN', { amount: Number.NaN }, 'amount', /positive finite number/],
    ['an infinite amount', { amount: Number.POSITIVE_INFINITY }, 'amount', /finite/],
    ['an amount as text', { amount: '10' }, 'amount', /positive finite number/],
    ['a lower-case currency', { currency: 'eur' }, 'currency', /ISO 4217/],
    ['a currency of four letters', { currency: 'EURO' }, 'currency', /ISO 4217/],
    ['a bad attribution', { attribution: { code: 'x' } }, 'attribution', /attribution must be/],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs', /timeoutMs must be/],
  ])('%s', (_what, change, option, message) =>
    expectRefusedBeforeRequest(
      (fetch) => recordPurchase({ ...base, fetch, ...change } as never),
      option,
      message,
    ),
  )

  it('inside a browser page (window and document defined)', async () => {
    const fetch = vi.fn(forbidden)
    await inBrowserPage(async () => {
      await expect(recordPurchase({ ...base, fetch })).rejects.toMatchObject({
        name: 'ServerConfigError',
        option: 'environment',
        message: expect.stringContaining('recordPurchase runs on your server only'),
      })
    })
    expect(fetch).not.toHaveBeenCalled()
  })
})
