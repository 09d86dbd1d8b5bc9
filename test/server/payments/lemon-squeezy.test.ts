// lemonSqueezyWebhook (referral-widget/server) against the local service, in-process: an
// order_created with the reference in meta.custom_data and an order_refunded, signed as Lemon
// Squeezy signs them (X-Signature: hex HMAC-SHA256 of the raw body).
import { describe, expect, it } from 'vitest'
import { lemonSqueezyWebhook, ServerConfigError } from '../../../src/server.ts'
import {
  DUPLICATE,
  eventsSent,
  hmacHex,
  ignored,
  RECORDED,
  SIGNATURE_INVALID,
  tally,
  unreachable,
  webhookWorld,
} from './world.ts'

const SIGNING_SECRET = 'ls-signing-secret-1'

/** The order's attributes the handler reads, as Lemon Squeezy's order object has them. */
interface OrderAttributes {
  customer_id: number
  total: number
  currency: string
  status: 'pending' | 'failed' | 'paid' | 'refunded' | 'partial_refund' | 'fraudulent'
  test_mode: boolean
  refunded: boolean
  refunded_amount: number
}

function orderEvent(
  event_name: string,
  { referral, ...attributes }: Partial<OrderAttributes> & { referral?: string } = {},
) {
  return {
    meta: {
      event_name,
      test_mode: attributes.test_mode ?? true,
      webhook_id: 'wh_1',
      ...(referral === undefined ? {} : { custom_data: { referral } }),
    },
    data: {
      type: 'orders',
      id: '1001',
      attributes: {
        store_id: 1,
        customer_id: 77,
        total: 1999,
        currency: 'EUR',
        status: 'paid',
        test_mode: true,
        refunded: false,
        refunded_amount: 0,
        ...attributes,
      } satisfies OrderAttributes & { store_id: number },
    },
  }
}

/** A subscription's payment (`subscription_payment_success`), as Lemon Squeezy sends it. */
function invoiceEvent(
  billing_reason: 'initial' | 'renewal' | 'updated',
  attributes: { id?: string; status?: 'paid' | 'pending'; total?: number } = {},
) {
  const { id = '5001', ...rest } = attributes
  return {
    meta: { event_name: 'subscription_payment_success', test_mode: true, webhook_id: 'wh_1' },
    data: {
      type: 'subscription-invoices',
      id,
      attributes: {
        store_id: 1,
        subscription_id: 301,
        customer_id: 77,
        billing_reason,
        total: 1999,
        currency: 'EUR',
        status: 'paid',
        test_mode: true,
        ...rest,
      },
    },
  }
}

async function signed(event: unknown, secret = SIGNING_SECRET) {
  const body = typeof event === 'string' ? event : JSON.stringify(event)
  return { body, headers: { 'X-Signature': await hmacHex(secret, body) } }
}

const world = (change: Partial<Parameters<typeof lemonSqueezyWebhook>[0]> = {}) =>
  webhookWorld(
    (options) => lemonSqueezyWebhook({ ...options, signingSecret: SIGNING_SECRET, ...change }),
    signed,
  )

describe('lemonSqueezyWebhook', () => {
  it('an order with the reference: recorded, one conversion; again: duplicate', async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { code, visitorId, reference } = await referredVisitor()
    const event = orderEvent('order_created', { referral: reference })
    expect(await send(event)).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(eventsSent(fetchSpy)).toMatchObject([
      { type: 'signup', userId: 'lemonsqueezy:77', code, visitorId },
      { type: 'purchase', orderId: 'lemonsqueezy:1001', amount: 19.99, currency: 'EUR' },
    ])
    expect(await send(event)).toEqual(DUPLICATE)
  })

  it('ten concurrent deliveries: one recorded, nine duplicate, one conversion', async () => {
    const { handler, deliver, stats, referredVisitor, time } = await world()
    const { reference } = await referredVisitor()
    const { body, headers } = await signed(orderEvent('order_created', { referral: reference }))
    const answers = await time.drive(
      Promise.all(Array.from({ length: 10 }, () => deliver(handler, body, headers))),
    )
    expect(tally(answers)).toEqual({ recorded: 1, duplicate: 9 })
    expect((await stats()).totalConversions).toBe(1)
  })

  it("a trial's free order keeps the referral; the subscription's first paid renewal converts, once", async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { reference } = await referredVisitor()
    const trial = orderEvent('order_created', { referral: reference, total: 0 })
    expect(await send(trial)).toEqual(ignored('zero_amount'))
    expect((await stats()).totalConversions).toBe(0)
    // When the trial ends: no reference on it; the customer's sign-up credits it.
    expect(await send(invoiceEvent('renewal'))).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(eventsSent(fetchSpy).at(-1)).toMatchObject({
      type: 'purchase',
      userId: 'lemonsqueezy:77',
      orderId: 'lemonsqueezy:subscription-invoice-5001',
      amount: 19.99,
    })
    expect(await send(invoiceEvent('renewal'))).toEqual(DUPLICATE)
    expect(await send(invoiceEvent('renewal', { id: '5002' }))).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(1)
  })

  it("a subscription's initial payment is its order's, recorded once; a pending one is not_paid", async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { reference } = await referredVisitor()
    expect(await send(invoiceEvent('initial'))).toEqual(ignored('first_invoice'))
    expect(await send(orderEvent('order_created', { referral: reference }))).toEqual(RECORDED)
    expect(await send(invoiceEvent('initial'))).toEqual(ignored('first_invoice'))
    expect(eventsSent(fetchSpy).filter((event) => event.type === 'purchase')).toHaveLength(1)
    expect((await stats()).totalConversions).toBe(1)
    const pending = invoiceEvent('renewal', { id: '5003', status: 'pending' })
    expect(await send(pending)).toEqual(ignored('not_paid'))
  })

  it('a refund reverses the conversion once', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    await send(orderEvent('order_created', { referral: reference }))
    const refund = orderEvent('order_refunded', {
      referral: reference,
      status: 'refunded',
      refunded: true,
      refunded_amount: 1999,
    })
    expect(await send(refund)).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
    expect(await send(refund)).toEqual(DUPLICATE)
    expect((await stats()).reversedConversions).toBe(1)
  })

  it('a live order at a test key: mode_mismatch; other events: event_unused; none: no_reference', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    expect(
      await send(orderEvent('order_created', { referral: reference, test_mode: false })),
    ).toEqual(ignored('mode_mismatch'))
    expect(await send(orderEvent('subscription_created'))).toEqual(ignored('event_unused'))
    expect(await send(orderEvent('order_created'))).toEqual(ignored('no_reference'))
    expect(await send(orderEvent('order_created', { referral: `${reference}x` }))).toEqual(
      ignored('reference_malformed'),
    )
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a free order: the referral kept (zero_amount); a pending one: not_paid', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    expect(await send(orderEvent('order_created', { referral: reference, total: 0 }))).toEqual(
      ignored('zero_amount'),
    )
    const pending = orderEvent('order_created', { referral: reference, status: 'pending' })
    expect(await send(pending)).toEqual(ignored('not_paid'))
    expect((await stats()).totalConversions).toBe(0)
  })

  it('a changed body, another secret, no or a malformed X-Signature: 400 signature_invalid', async () => {
    const { handler, deliver, fetchSpy } = await world()
    const { body, headers } = await signed(orderEvent('order_created'))
    const tampered = body.replace('"total":1999', '"total":199900')
    expect(await deliver(handler, tampered, headers)).toEqual(SIGNATURE_INVALID)
    const other = await signed(orderEvent('order_created'), 'another-secret')
    expect(await deliver(handler, other.body, other.headers)).toEqual(SIGNATURE_INVALID)
    expect(await deliver(handler, body, {})).toEqual(SIGNATURE_INVALID)
    expect(await deliver(handler, body, { 'X-Signature': 'abc' })).toEqual(SIGNATURE_INVALID)
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a signed body that is not JSON, or an order without a total: 400 body_invalid', async () => {
    const { handler, deliver } = await world()
    const bodyInvalid = { status: 400, body: { error: 'body_invalid' } }
    const notJson = await signed('not json')
    expect(await deliver(handler, notJson.body, notJson.headers)).toEqual(bodyInvalid)
    const event = orderEvent('order_created')
    const noTotal = await signed({
      ...event,
      data: { ...event.data, attributes: { ...event.data.attributes, total: '19.99' } },
    })
    expect(await deliver(handler, noTotal.body, noTotal.headers)).toEqual(bodyInvalid)
    // A customer id that is not an exact whole number above zero names nobody.
    for (const customer_id of [2 ** 53 + 1, -1, 0, 1.5]) {
      const odd = await signed(orderEvent('order_created', { customer_id }))
      expect(await deliver(handler, odd.body, odd.headers)).toEqual(bodyInvalid)
    }
  })

  it('a body that is not UTF-8: 400 signature_invalid unless signed, then body_invalid', async () => {
    const { handler, deliver, fetchSpy } = await world()
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) // {"<not UTF-8>"}
    const forged = { 'X-Signature': '0'.repeat(64) }
    expect(await deliver(handler, bytes, forged)).toEqual(SIGNATURE_INVALID)
    const genuine = { 'X-Signature': await hmacHex(SIGNING_SECRET, bytes) }
    expect(await deliver(handler, bytes, genuine)).toEqual({
      status: 400,
      body: { error: 'body_invalid' },
    })
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('the service unreachable: 503; no signing secret: ServerConfigError at once', async () => {
    const { send, referredVisitor } = await world({ fetch: unreachable() })
    const { reference } = await referredVisitor()
    expect(await send(orderEvent('order_created', { referral: reference }))).toEqual({
      status: 503,
      body: { error: 'service_unavailable' },
    })
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://referrals.example.test' }
    expect(() => lemonSqueezyWebhook({ ...base, signingSecret: '' })).toThrow(ServerConfigError)
  })
})
