// stripeWebhook (referral-widget/server) against the local service, in-process: Stripe's events
// for a referred friend's checkout, a trial's first invoice and a refund, signed offline with the
// SDK's own helper. The campaign's stats are the judge.
import { describe, expect, it } from 'vitest'
import { recordRefund, stripeWebhook } from '../../../src/server.ts'
import {
  chargeRefunded,
  checkoutCompleted,
  customerCreated,
  ENDPOINT_SECRET,
  invoicePaid,
  signed,
  stripe,
} from './stripe-events.ts'
import { eventsSent, ignored, RECORDED, tally, webhookWorld } from './world.ts'

const world = () =>
  webhookWorld(
    (options) => stripeWebhook({ ...options, stripe, endpointSecret: ENDPOINT_SECRET }),
    signed,
  )

describe('stripeWebhook: a referred friend pays', () => {
  it('a paid checkout with the reference: recorded, one conversion; the same event again: duplicate', async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { code, visitorId, reference } = await referredVisitor()
    const event = checkoutCompleted({ client_reference_id: reference })
    expect(await send(event)).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    // The customer's sign-up with the reference's referral, then the purchase by payment intent.
    const [signup, purchase] = eventsSent(fetchSpy)
    expect(signup).toMatchObject({ type: 'signup', userId: 'stripe:cus_Friend01', code, visitorId })
    expect(purchase).toMatchObject({
      type: 'purchase',
      userId: 'stripe:cus_Friend01',
      orderId: 'stripe:pi_Order01',
      amount: 49,
      currency: 'USD',
      code,
      visitorId,
    })
    expect(await send(event)).toEqual({ status: 200, body: { outcome: 'duplicate' } })
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  })

  it('ten concurrent deliveries of one checkout: one recorded, nine duplicate, one conversion', async () => {
    const { handler, deliver, stats, referredVisitor, time } = await world()
    const { reference } = await referredVisitor()
    const { body, headers } = await signed(checkoutCompleted({ client_reference_id: reference }))
    const answers = await time.drive(
      Promise.all(Array.from({ length: 10 }, () => deliver(handler, body, headers))),
    )
    expect(tally(answers)).toEqual({ recorded: 1, duplicate: 9 })
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  })

  it('the reference in metadata.referral, client_reference_id holding the site’s own id', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const event = checkoutCompleted({
      client_reference_id: 'user_42',
      metadata: { referral: reference },
    })
    expect(await send(event)).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('a subscription checkout without a payment intent is recorded by the session id', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const event = checkoutCompleted({
      client_reference_id: reference,
      mode: 'subscription',
      payment_intent: null,
    })
    expect(await send(event)).toEqual(RECORDED)
    expect(eventsSent(fetchSpy)[1]).toMatchObject({ orderId: 'stripe:cs_test_a1' })
  })

  it('a trial ($0 checkout): ignored zero_amount, the referral kept; its first paid invoice converts', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const trial = checkoutCompleted({
      client_reference_id: reference,
      mode: 'subscription',
      payment_intent: null,
      amount_total: 0,
      payment_status: 'no_payment_required',
    })
    expect(await send(trial)).toEqual(ignored('zero_amount'))
    expect(await send(trial)).toEqual(ignored('zero_amount'))
    expect((await stats()).totalConversions).toBe(0)
    // Fourteen days later: the first invoice, no reference on it; the customer's sign-up credits it.
    expect(await send(invoicePaid())).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(await send(invoicePaid({ id: 'in_Invoice02' }))).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(1)
  })

  it("a subscription bought through Checkout: its first invoice is the checkout's payment, recorded once", async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { reference } = await referredVisitor()
    const subscribed = checkoutCompleted({
      client_reference_id: reference,
      mode: 'subscription',
      payment_intent: null,
      amount_total: 1500,
      currency: 'eur',
    })
    const first = invoicePaid({ billing_reason: 'subscription_create' })
    // Stripe sends the two in either order.
    expect(await send(first)).toEqual(ignored('first_invoice'))
    expect(await send(subscribed)).toEqual(RECORDED)
    expect(await send(first)).toEqual(ignored('first_invoice'))
    expect(eventsSent(fetchSpy).filter((event) => event.type === 'purchase')).toHaveLength(1)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    // A month later: the renewal is a purchase of its own.
    expect(await send(invoicePaid({ id: 'in_Invoice02' }))).toEqual(RECORDED)
    expect(eventsSent(fetchSpy).filter((event) => event.type === 'purchase')).toHaveLength(2)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('an invoice of a customer never referred: recorded, nothing converts', async () => {
    const { send, stats } = await world()
    expect(await send(invoicePaid({ customer: 'cus_Stranger' }))).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(0)
  })

  it('an invoice of 0 (a trial’s own): ignored zero_amount, nothing sent', async () => {
    const { send, fetchSpy } = await world()
    expect(await send(invoicePaid({ amount_paid: 0 }))).toEqual(ignored('zero_amount'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a refund reverses the conversion once (stats.reversedConversions)', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    await send(checkoutCompleted({ client_reference_id: reference }))
    const refund = chargeRefunded()
    expect(await send(refund)).toEqual(RECORDED)
    expect(await stats()).toMatchObject({
      totalConversions: 0,
      totalRewardsIssued: 0,
      reversedConversions: 1,
    })
    expect(await send(refund)).toEqual({ status: 200, body: { outcome: 'duplicate' } })
    // A second partial refund of the same charge is its own event: accepted, nothing more moves.
    expect(await send(chargeRefunded({ amount_refunded: 4900 }))).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })

  it('a refund before its purchase changes nothing; one recorded after it reverses it', async () => {
    const { send, stats, referredVisitor, options, time } = await world()
    const { reference } = await referredVisitor()
    expect(await send(chargeRefunded())).toEqual(RECORDED)
    expect(await send(checkoutCompleted({ client_reference_id: reference }))).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, reversedConversions: 0 })
    // What PAYMENTS.md tells the site to do: the refund again, under an id of its own.
    const again = await time.drive(
      recordRefund({ ...options, orderId: 'stripe:pi_Order01', refundId: 'site_refund_1' }),
    )
    expect(again.status).toBe('accepted')
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
  })

  it('amounts in the currency’s major unit: yen whole, dinars in thousandths', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const first = await referredVisitor('v_friend_0001')
    const second = await referredVisitor('v_friend_0002')
    const yen = { amount_total: 4900, currency: 'jpy' }
    await send(checkoutCompleted({ client_reference_id: first.reference, ...yen }))
    await send(
      checkoutCompleted({
        client_reference_id: second.reference,
        customer: 'cus_Friend02',
        payment_intent: 'pi_Order02',
        amount_total: 5125,
        currency: 'kwd',
      }),
    )
    const purchases = eventsSent(fetchSpy).filter((event) => event.type === 'purchase')
    expect(purchases.map(({ amount, currency }) => [amount, currency])).toEqual([
      [4900, 'JPY'],
      [5.125, 'KWD'],
    ])
  })
})

describe('stripeWebhook: events it reads and leaves', () => {
  it('an event type it does not use: ignored event_unused, nothing sent', async () => {
    const { send, fetchSpy } = await world()
    expect(await send(customerCreated())).toEqual(ignored('event_unused'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a checkout without a reference: ignored no_reference, nothing sent', async () => {
    const { send, fetchSpy } = await world()
    expect(await send(checkoutCompleted())).toEqual(ignored('no_reference'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a reference changed on its way: ignored reference_check_failed, nothing converts', async () => {
    const { send, fetchSpy, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const last = reference.at(-1) === '0' ? '1' : '0'
    const changed = `${reference.slice(0, -1)}${last}`
    const event = checkoutCompleted({ client_reference_id: changed })
    expect(await send(event)).toEqual(ignored('reference_check_failed'))
    expect(fetchSpy).not.toHaveBeenCalled()
    expect((await stats()).totalConversions).toBe(0)
  })

  it('another value in the slot, no reference elsewhere: ignored reference_malformed', async () => {
    const { send } = await world()
    const event = checkoutCompleted({ client_reference_id: 'user_42' })
    expect(await send(event)).toEqual(ignored('reference_malformed'))
  })

  it('the site’s id in client_reference_id and a changed reference in metadata: reference_check_failed', async () => {
    const { send, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const changed = `${reference.slice(0, -1)}${reference.at(-1) === '0' ? '1' : '0'}`
    const event = checkoutCompleted({
      client_reference_id: 'user_42',
      metadata: { referral: changed },
    })
    expect(await send(event)).toEqual(ignored('reference_check_failed'))
    const later = checkoutCompleted({
      client_reference_id: 'user_42',
      metadata: { referral: 'r9-x' },
    })
    expect(await send(later)).toEqual(ignored('reference_unknown_version'))
  })

  it('a checkout without a customer: ignored no_customer (customer_creation "always" gives one)', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const event = checkoutCompleted({ client_reference_id: reference, customer: null })
    expect(await send(event)).toEqual(ignored('no_customer'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a live event at a test key: ignored mode_mismatch, nothing sent', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const event = checkoutCompleted({ client_reference_id: reference }, true)
    expect(await send(event)).toEqual(ignored('mode_mismatch'))
    expect(await send(invoicePaid({}, true))).toEqual(ignored('mode_mismatch'))
    expect(await send(chargeRefunded({}, true))).toEqual(ignored('mode_mismatch'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a delayed payment: the sign-up at checkout (not_paid), the purchase when it succeeds', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const pending = checkoutCompleted({ client_reference_id: reference, payment_status: 'unpaid' })
    expect(await send(pending)).toEqual(ignored('not_paid'))
    expect((await stats()).totalConversions).toBe(0)
    const succeeded = {
      ...checkoutCompleted({ client_reference_id: reference }),
      type: 'checkout.session.async_payment_succeeded',
    }
    expect(await send(succeeded)).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('a refund of a charge without a payment intent: ignored no_payment_intent', async () => {
    const { send, fetchSpy } = await world()
    expect(await send(chargeRefunded({ payment_intent: null }))).toEqual(
      ignored('no_payment_intent'),
    )
    expect(fetchSpy).not.toHaveBeenCalled()
  })
})
