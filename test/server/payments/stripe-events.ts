// Stripe events as Stripe sends them (the fields the handler reads, typed against the SDK's own
// event types), and deliveries signed offline with the SDK's own test helper.
import Stripe from 'stripe'

export const ENDPOINT_SECRET = 'whsec_test_endpoint_secret'
/** The site's own Stripe client; no request is ever made with it. */
export const stripe = new Stripe('sk_test_site_own_stripe_key')

/** The envelope fields every event has. */
type Envelope<E extends Stripe.Event> = Pick<E, 'id' | 'object' | 'type' | 'livemode' | 'created'>

/** An event whose object carries the fields `K` of the SDK's type for it. */
type Snapshot<E extends Stripe.Event, K extends keyof E['data']['object']> = Envelope<E> & {
  data: { object: Pick<E['data']['object'], K> }
}

let sequence = 0
const next = () => {
  sequence += 1
  return sequence.toString().padStart(6, '0')
}
const envelope = <T extends Stripe.Event['type']>(type: T, livemode: boolean) => ({
  id: `evt_${next()}`,
  object: 'event' as const,
  type,
  livemode,
  created: Math.floor(Date.now() / 1000),
})

type SessionFields =
  | 'id'
  | 'object'
  | 'client_reference_id'
  | 'metadata'
  | 'customer'
  | 'payment_intent'
  | 'amount_total'
  | 'currency'
  | 'payment_status'
  | 'mode'

export function checkoutCompleted(
  fields: Partial<Pick<Stripe.Checkout.Session, SessionFields>> = {},
  livemode = false,
): Snapshot<Stripe.CheckoutSessionCompletedEvent, SessionFields> {
  return {
    ...envelope('checkout.session.completed', livemode),
    data: {
      object: {
        id: 'cs_test_a1',
        object: 'checkout.session',
        client_reference_id: null,
        metadata: {},
        customer: 'cus_Friend01',
        payment_intent: 'pi_Order01',
        amount_total: 4900,
        currency: 'usd',
        payment_status: 'paid',
        mode: 'payment',
        ...fields,
      },
    },
  }
}

type InvoiceFields = 'id' | 'object' | 'customer' | 'amount_paid' | 'currency' | 'billing_reason'

export function invoicePaid(
  fields: Partial<Pick<Stripe.Invoice, InvoiceFields>> = {},
  livemode = false,
): Snapshot<Stripe.InvoicePaidEvent, InvoiceFields> {
  return {
    ...envelope('invoice.paid', livemode),
    data: {
      object: {
        id: 'in_Invoice01',
        object: 'invoice',
        customer: 'cus_Friend01',
        amount_paid: 1500,
        currency: 'eur',
        billing_reason: 'subscription_cycle',
        ...fields,
      },
    },
  }
}

type ChargeFields = 'id' | 'object' | 'payment_intent' | 'amount_refunded' | 'currency' | 'refunded'

export function chargeRefunded(
  fields: Partial<Pick<Stripe.Charge, ChargeFields>> = {},
  livemode = false,
): Snapshot<Stripe.ChargeRefundedEvent, ChargeFields> {
  return {
    ...envelope('charge.refunded', livemode),
    data: {
      object: {
        id: 'ch_Charge01',
        object: 'charge',
        payment_intent: 'pi_Order01',
        amount_refunded: 4900,
        currency: 'usd',
        refunded: true,
        ...fields,
      },
    },
  }
}

/** An event the handler does not use. */
export const customerCreated = (): Envelope<Stripe.CustomerCreatedEvent> & {
  data: { object: Pick<Stripe.Customer, 'id' | 'object'> }
} => ({
  ...envelope('customer.created', false),
  data: { object: { id: 'cus_Friend01', object: 'customer' } },
})

/** The body and Stripe-Signature header of a delivery, signed as Stripe signs it. */
export async function signed(
  event: unknown,
  { secret = ENDPOINT_SECRET, timestamp }: { secret?: string; timestamp?: number } = {},
) {
  const body = JSON.stringify(event)
  const header = await stripe.webhooks.generateTestHeaderStringAsync({
    payload: body,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  })
  return { body, headers: { 'Stripe-Signature': header } }
}
