// Lemon Squeezy: order_created carries the reference in `meta.custom_data.referral` (a checkout
// link's `checkout[custom][referral]`); order_refunded reverses. Signed with `X-Signature`, the
// hex HMAC-SHA256 of the raw body under the webhook's signing secret, checked with Web Crypto:
// no SDK needed.

import { boolean, number, object, string } from '../../shared/parse.ts'
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

/** Lemon Squeezy's ids are numbers in attributes (`customer_id: 1`), strings at `data.id`. */
const numericId = (value: unknown) =>
  typeof value === 'string' ? string(/^[0-9]{1,20}$/)(value) : String(number(value))

const Order = object({
  customer_id: maybe(numericId),
  total: minorUnits,
  currency: currencyCode,
  status: string(),
  test_mode: maybe(boolean),
  refunded_amount: maybe(minorUnits),
})

const attributesOf = (body: unknown) => (body as { data: { attributes: unknown } }).data.attributes

function readLemonSqueezy(body: unknown): PaymentEvent | null {
  const meta = parse(Meta, body)?.meta
  if (!meta) return null
  if (meta.event_name !== 'order_created' && meta.event_name !== 'order_refunded') {
    return { kind: 'ignored', reason: 'event_unused' }
  }
  const data = parse(Data, body)?.data
  const order = data && parse(Order, attributesOf(body))
  if (!data || !order) return null
  const test = order.test_mode ?? meta.test_mode
  const live = test === null ? undefined : !test
  if (meta.event_name === 'order_refunded') {
    const refunded = order.refunded_amount ?? 0
    return {
      kind: 'refund',
      live,
      orderId: data.id,
      // No event id is sent: the refunded total tells one partial refund from the next, and
      // stays the same when the same delivery comes again.
      refundId: `${data.id}:refund:${refunded}`,
      amount: refunded > 0 ? { minor: refunded, currency: order.currency } : null,
    }
  }
  return {
    kind: 'checkout',
    live,
    references: [meta.custom_data?.referral],
    customerId: order.customer_id,
    orderId: data.id,
    amount: order.total > 0 ? { minor: order.total, currency: order.currency } : null,
    paid: order.status === 'paid',
  }
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
