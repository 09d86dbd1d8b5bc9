// Lemon Squeezy: order_created carries the reference in `meta.custom_data.referral` (a checkout
// link's `checkout[custom][referral]`); subscription_payment_success credits a subscription's
// later payments (a trial's first) by the customer's sign-up, not its initial one, which is the
// order's; order_refunded reverses. Signed with `X-Signature`, the hex HMAC-SHA256 of the raw
// body under the webhook's signing secret, checked with Web Crypto: no SDK needed.

import { boolean, object, string } from '../../shared/parse.ts'
import { anything, currencyCode, maybe, minorUnits, optional, parse } from './fields.ts'
import { checkSecret, createWebhookHandler, type WebhookHandler } from './handle.ts'
import type { PaymentEvent, WebhookOptions } from './type.ts'

export interface LemonSqueezyWebhookOptions extends WebhookOptions {
  /** The webhook's signing secret, as entered in Settings → Webhooks. */
  signingSecret: string
}

const LEMON_SQUEEZY_TIMEOUT_MS = 8_000
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/

const Meta = object({
  meta: object({
    event_name: string(),
    test_mode: maybe(boolean),
    custom_data: maybe(object({ referral: optional(anything) })),
  }),
})

const Data = object({ data: object({ id: string(), attributes: object({}) }) })

/**
 * Lemon Squeezy's ids are numbers in attributes (`customer_id: 1`), strings at `data.id`: a
 * whole number above zero, and as a number an exact one (2^53 + 1 would read as another id).
 */
const numericId = (value: unknown) =>
  String(
    typeof value === 'number' && value > 0 ? minorUnits(value) : string(/^[0-9]{1,20}$/)(value),
  )

const Order = object({
  customer_id: maybe(numericId),
  total: minorUnits,
  currency: currencyCode,
  status: string(),
  test_mode: maybe(boolean),
  refunded_amount: maybe(minorUnits),
})

/** A subscription's invoice (`subscription-invoices`): its own ids, apart from the orders'. */
const SubscriptionInvoice = object({
  customer_id: maybe(numericId),
  total: minorUnits,
  currency: currencyCode,
  status: string(),
  billing_reason: string(),
  test_mode: maybe(boolean),
})

const attributesOf = (body: unknown) => (body as { data: { attributes: unknown } }).data.attributes

const EVENTS = ['order_created', 'order_refunded', 'subscription_payment_success']

type Meta = NonNullable<ReturnType<typeof Meta>>['meta']

/** Whether the event is live: the object's own `test_mode`, else the delivery's. */
function liveOf(test: boolean | null, meta: Meta) {
  const either = test ?? meta.test_mode
  return either === null ? undefined : !either
}

/** A subscription's payment: its later ones are credited by the customer's sign-up. */
function readInvoice(body: unknown, id: string, meta: Meta): PaymentEvent | null {
  const invoice = parse(SubscriptionInvoice, attributesOf(body))
  if (!invoice) return null
  const live = liveOf(invoice.test_mode, meta)
  // The initial payment is the order's, which order_created records.
  if (invoice.billing_reason === 'initial')
    return { kind: 'ignored', live, reason: 'first_invoice' }
  if (invoice.status !== 'paid') return { kind: 'ignored', live, reason: 'not_paid' }
  return {
    kind: 'payment',
    live,
    customerId: invoice.customer_id,
    orderId: `subscription-invoice-${id}`,
    amount: { minor: invoice.total, currency: invoice.currency },
  }
}

/** An order, with the reference, or its refund. */
function readOrder(body: unknown, id: string, meta: Meta): PaymentEvent | null {
  const order = parse(Order, attributesOf(body))
  if (!order) return null
  const live = liveOf(order.test_mode, meta)
  if (meta.event_name === 'order_refunded') {
    const refunded = order.refunded_amount ?? 0
    return {
      kind: 'refund',
      live,
      orderId: id,
      // No event id is sent: the refunded total tells one partial refund from the next, and
      // stays the same when the same delivery comes again.
      refundId: `${id}:refund:${refunded}`,
      amount: refunded > 0 ? { minor: refunded, currency: order.currency } : null,
    }
  }
  return {
    kind: 'checkout',
    live,
    references: [meta.custom_data?.referral],
    customerId: order.customer_id,
    orderId: id,
    amount: order.total > 0 ? { minor: order.total, currency: order.currency } : null,
    paid: order.status === 'paid',
  }
}

function readLemonSqueezy(body: unknown): PaymentEvent | null {
  const meta = parse(Meta, body)?.meta
  if (!meta) return null
  if (!EVENTS.includes(meta.event_name)) return { kind: 'ignored', reason: 'event_unused' }
  const id = parse(Data, body)?.data.id
  if (id === undefined) return null
  return meta.event_name === 'subscription_payment_success'
    ? readInvoice(body, id, meta)
    : readOrder(body, id, meta)
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let at = 0; at < bytes.length; at++) {
    bytes[at] = Number.parseInt(hex.slice(at * 2, at * 2 + 2), 16)
  }
  return bytes
}

/**
 * A handler for Lemon Squeezy's webhook deliveries (`(request: Request) => Promise<Response>`),
 * to mount at the webhook's callback URL. Answers as stripeWebhook does. Throws
 * ServerConfigError at once for a wrong option.
 */
export function lemonSqueezyWebhook(options: LemonSqueezyWebhookOptions): WebhookHandler {
  return createWebhookHandler('lemonSqueezyWebhook', options, LEMON_SQUEEZY_TIMEOUT_MS, () => {
    const { signingSecret } = options
    checkSecret('lemonSqueezyWebhook', 'signingSecret', signingSecret)
    let key: Promise<CryptoKey> | undefined
    return {
      prefix: 'lemonsqueezy',
      signatureHeader: 'x-signature',
      async verify({ text, bytes }, signature) {
        if (!HEX_SHA256.test(signature)) return { error: 'signature_invalid' }
        key ??= crypto.subtle.importKey(
          'raw',
          new TextEncoder().encode(signingSecret),
          { name: 'HMAC', hash: 'SHA-256' },
          false,
          ['verify'],
        )
        // verify() compares in constant time: no timing tells how much of a forgery matched.
        if (!(await crypto.subtle.verify('HMAC', await key, hexBytes(signature), bytes))) {
          return { error: 'signature_invalid' }
        }
        try {
          return { body: JSON.parse(text) as unknown }
        } catch {
          return { error: 'body_invalid' }
        }
      },
      read: readLemonSqueezy,
    }
  })
}
