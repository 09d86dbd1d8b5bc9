// Stripe: checkout.session.completed (and async_payment_succeeded) carry the reference in
// `client_reference_id` (or `metadata.referral`); invoice.paid credits a subscription's later
// payments (a trial's first) by the customer's sign-up, but not its first invoice, which the
// checkout records; charge.refunded reverses. Verified with
// the site's own Stripe client, `webhooks.constructEventAsync`, which also runs on edge runtimes.

import { boolean, object, string } from '../../shared/parse.ts'
import { ServerConfigError } from '../errors.ts'
import { anything, currencyCode, idOf, maybe, minorUnits, optional, parse } from './fields.ts'
import { checkSecret, createWebhookHandler, type WebhookHandler } from './handle.ts'
import type { PaymentEvent, WebhookOptions } from './type.ts'

/** What is used of the site's client from the `stripe` package (a `Stripe` instance). */
export interface StripeClient {
  webhooks: {
    constructEventAsync(payload: string, header: string, secret: string): Promise<unknown>
  }
}

export interface StripeWebhookOptions extends WebhookOptions {
  /** Your Stripe client, `new Stripe(…)` from the `stripe` package: only its webhooks are used. */
  stripe: StripeClient
  /** The endpoint's signing secret (`whsec_…`), from the Dashboard or `stripe listen`. */
  endpointSecret: string
}

/** Stripe waits 20 s at most for an answer; this leaves room for the site's own work. */
const STRIPE_TIMEOUT_MS = 8_000

const Envelope = object({
  id: string(),
  type: string(),
  livemode: boolean,
  data: object({ object: object({}) }),
})

const Session = object({
  id: string(),
  client_reference_id: maybe(anything),
  metadata: maybe(object({ referral: optional(anything) })),
  customer: maybe(idOf),
  payment_intent: maybe(idOf),
  amount_total: maybe(minorUnits),
  currency: maybe(currencyCode),
  payment_status: string(),
})

const Invoice = object({
  id: string(),
  customer: maybe(idOf),
  // Present on invoices only up to API version 2025-03-31 ("basil"); the invoice's id after.
  payment_intent: maybe(idOf),
  amount_paid: minorUnits,
  currency: currencyCode,
  billing_reason: maybe(string()),
})

const Charge = object({
  id: string(),
  payment_intent: maybe(idOf),
  amount_refunded: minorUnits,
  currency: currencyCode,
})

/** The event's object, re-read from the raw event (Envelope keeps only the fields it names). */
const objectOf = (event: unknown) => (event as { data: { object: unknown } }).data.object

function readStripe(body: unknown): PaymentEvent | null {
  const envelope = parse(Envelope, body)
  if (!envelope) return null
  const live = envelope.livemode
  const object = objectOf(body)
  switch (envelope.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = parse(Session, object)
      if (!session) return null
      const { amount_total: minor, currency, payment_status: status } = session
      // A trial, or a card saved for later: no payment now, the sign-up is still recorded.
      const free = status === 'no_payment_required' || !minor
      if (!free && !currency) return null
      return {
        kind: 'checkout',
        live,
        references: [session.client_reference_id, session.metadata?.referral],
        customerId: session.customer,
        orderId: session.payment_intent ?? session.id,
        amount: free || !minor || !currency ? null : { minor, currency },
        // 'unpaid': a delayed method (a bank debit); async_payment_succeeded follows when it is.
        paid: status === 'paid' || status === 'no_payment_required',
      }
    }
    case 'invoice.paid': {
      const invoice = parse(Invoice, object)
      if (!invoice) return null
      // A subscription's first invoice is paid by its checkout, which records it (under the
      // session's id): read here too, the one payment would be two purchases.
      if (invoice.billing_reason === 'subscription_create')
        return { kind: 'ignored', live, reason: 'first_invoice' }
      return {
        kind: 'payment',
        live,
        customerId: invoice.customer,
        orderId: invoice.payment_intent ?? invoice.id,
        amount: { minor: invoice.amount_paid, currency: invoice.currency },
      }
    }
    case 'charge.refunded': {
      const charge = parse(Charge, object)
      if (!charge) return null
      // Purchases are recorded by payment intent: a charge without one matches none of them.
      if (!charge.payment_intent) return { kind: 'ignored', live, reason: 'no_payment_intent' }
      return {
        kind: 'refund',
        live,
        orderId: charge.payment_intent,
        // Each refund of a charge is its own event; a redelivery keeps the event's id.
        refundId: envelope.id,
        amount: { minor: charge.amount_refunded, currency: charge.currency },
      }
    }
    default:
      return { kind: 'ignored', reason: 'event_unused' }
  }
}

/**
 * A handler for Stripe's webhook deliveries (`(request: Request) => Promise<Response>`), to
 * mount at the endpoint's URL. Answers 200 `{ outcome, reason? }` for every event it read, 400
 * `{ error: 'signature_invalid' | 'body_invalid' }`, 503 when the referral service did not take
 * it (Stripe delivers it again). Throws ServerConfigError at once for a wrong option.
 */
export function stripeWebhook(options: StripeWebhookOptions): WebhookHandler {
  return createWebhookHandler('stripeWebhook', options, STRIPE_TIMEOUT_MS, () => {
    const { stripe, endpointSecret } = options
    if (typeof stripe?.webhooks?.constructEventAsync !== 'function') {
      throw new ServerConfigError(
        'stripe',
        '[referral] stripeWebhook needs your Stripe client (new Stripe(…) from the stripe package) as stripe.',
      )
    }
    checkSecret('stripeWebhook', 'endpointSecret', endpointSecret)
    return {
      prefix: 'stripe',
      signatureHeader: 'stripe-signature',
      async verify({ text }, signature) {
        try {
          return {
            body: await stripe.webhooks.constructEventAsync(text, signature, endpointSecret),
          }
        } catch (error) {
          // The body is parsed only once the signature held: a JSON error means a signed body
          // that is not JSON; anything else (StripeSignatureVerificationError) is the signature.
          return { error: error instanceof SyntaxError ? 'body_invalid' : 'signature_invalid' }
        }
      },
      read: readStripe,
    }
  })
}
