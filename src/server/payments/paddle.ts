// Paddle Billing: transaction.completed carries the reference in `custom_data.referral` (Paddle.js
// `customData: { referral }`); a subscription's later transactions, without it, are credited by
// the customer's sign-up; an approved refund adjustment reverses. Verified with the site's own
// Paddle client, `webhooks.unmarshal`; the fields are read from the raw body, Paddle's documented
// wire form (snake_case), not from the SDK's entities, whose names differ between its versions.

import { object, string } from '../../shared/parse.ts'
import { ServerConfigError } from '../errors.ts'
import { anything, currencyCode, maybe, minorUnits, optional, parse } from './fields.ts'
import { checkSecret, createWebhookHandler, type WebhookHandler } from './handle.ts'
import type { PaymentEvent, WebhookOptions } from './type.ts'

/** What is used of the site's client from `@paddle/paddle-node-sdk` (a `Paddle` instance). */
export interface PaddleClient {
  webhooks: {
    /** A promise of the event; the SDK's first versions answered at once, null when invalid. */
    unmarshal(requestBody: string, secretKey: string, signature: string): unknown
  }
}

export interface PaddleWebhookOptions extends WebhookOptions {
  /** Your Paddle client, `new Paddle(…)` from `@paddle/paddle-node-sdk`: only webhooks are used. */
  paddle: PaddleClient
  /** The notification destination's secret key (`pdl_ntfset_…`). */
  endpointSecret: string
}

/** Paddle waits 5 s for an answer. */
const PADDLE_TIMEOUT_MS = 4_000

const Envelope = object({ event_id: string(), event_type: string(), data: object({}) })

const Transaction = object({
  id: string(),
  customer_id: maybe(string()),
  custom_data: maybe(object({ referral: optional(anything) })),
  currency_code: currencyCode,
  origin: maybe(string()),
  subscription_id: maybe(string()),
  details: object({ totals: object({ grand_total: minorUnits }) }),
})

const Adjustment = object({
  id: string(),
  action: string(),
  status: string(),
  transaction_id: string(),
  currency_code: currencyCode,
  totals: maybe(object({ total: minorUnits })),
})

const dataOf = (body: unknown) => (body as { data: unknown }).data

function readPaddle(body: unknown): PaymentEvent | null {
  const envelope = parse(Envelope, body)
  if (!envelope) return null
  switch (envelope.event_type) {
    case 'transaction.completed': {
      const transaction = parse(Transaction, dataOf(body))
      if (!transaction) return null
      const reference = transaction.custom_data?.referral
      const total = transaction.details.totals.grand_total
      const amount = total > 0 ? { minor: total, currency: transaction.currency_code } : null
      const customerId = transaction.customer_id
      // A renewal (or another charge of a subscription) carries no reference of its own: the
      // customer's sign-up, recorded at the first checkout, credits it (a trial's first payment).
      const renewal =
        transaction.subscription_id !== null && transaction.origin?.startsWith('subscription_')
      if (reference === undefined && renewal) {
        if (!amount) return { kind: 'ignored', reason: 'zero_amount' }
        return { kind: 'payment', customerId, orderId: transaction.id, amount }
      }
      return {
        kind: 'checkout',
        references: [reference],
        customerId,
        orderId: transaction.id,
        amount,
        paid: true,
      }
    }
    case 'adjustment.created':
    case 'adjustment.updated': {
      const adjustment = parse(Adjustment, dataOf(body))
      if (!adjustment) return null
      // A refund counts once Paddle approved it; created (pending) and updated share its id.
      if (adjustment.action !== 'refund') return { kind: 'ignored', reason: 'event_unused' }
      if (adjustment.status !== 'approved') return { kind: 'ignored', reason: 'not_approved' }
      return {
        kind: 'refund',
        orderId: adjustment.transaction_id,
        refundId: adjustment.id,
        amount: adjustment.totals
          ? { minor: adjustment.totals.total, currency: adjustment.currency_code }
          : null,
      }
    }
    default:
      return { kind: 'ignored', reason: 'event_unused' }
  }
}

/**
 * A handler for Paddle Billing's webhook deliveries (`(request: Request) => Promise<Response>`),
 * to mount at the notification destination's URL. Answers as stripeWebhook does. Paddle's events
 * carry no mode: give a sandbox destination's secret with a test key, a live one's with a live
 * key. Throws ServerConfigError at once for a wrong option.
 */
export function paddleWebhook(options: PaddleWebhookOptions): WebhookHandler {
  return createWebhookHandler('paddleWebhook', options, PADDLE_TIMEOUT_MS, () => {
    const { paddle, endpointSecret } = options
    if (typeof paddle?.webhooks?.unmarshal !== 'function') {
      throw new ServerConfigError(
        'paddle',
        '[referral] paddleWebhook needs your Paddle client (new Paddle(…) from @paddle/paddle-node-sdk) as paddle.',
      )
    }
    checkSecret('paddleWebhook', 'endpointSecret', endpointSecret)
    return {
      prefix: 'paddle',
      signatureHeader: 'paddle-signature',
      async verify({ text }, signature) {
        try {
          const event = await paddle.webhooks.unmarshal(text, endpointSecret, signature)
          if (event === null || event === undefined) return { error: 'signature_invalid' }
        } catch (error) {
          // The SDK throws a plain Error for each signature failure (a bad header, a mismatch);
          // once the check holds, JSON.parse and the event's classes fail with a SyntaxError or
          // a TypeError: the body is not Paddle's shape. Told by type, never by message text
          // (a parse error's message quotes the body).
          const shape = error instanceof SyntaxError || error instanceof TypeError
          return { error: shape ? 'body_invalid' : 'signature_invalid' }
        }
        try {
          return { body: JSON.parse(text) as unknown }
        } catch {
          return { error: 'body_invalid' }
        }
      },
      read: readPaddle,
    }
  })
}
