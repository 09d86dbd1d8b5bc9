// The one interface behind stripeWebhook, paddleWebhook and lemonSqueezyWebhook: a provider
// checks a delivery's signature and says, in the terms of the referral service, what its event
// asks; handle.ts does the rest the same way for all three.

import type { ServiceOptions } from '../options.ts'

/** An amount as the provider sends it: minor units (cents), and its currency, any case. */
export interface MinorAmount {
  minor: number
  currency: string
}

/** Where an event carries its mode: test events at a live key (or the reverse) are ignored. */
interface Mode {
  live?: boolean | undefined
}

/** Nothing to record; `reason` says why (`event_unused`, `no_payment_intent`, …). */
export interface IgnoredEvent extends Mode {
  kind: 'ignored'
  reason: string
}

/**
 * A completed checkout: with a reference, the buyer's sign-up (so a later payment is credited
 * without one), then the purchase.
 */
export interface CheckoutEvent extends Mode {
  kind: 'checkout'
  /** The slots that may hold the reference, in order: the first that reads counts. */
  references: unknown[]
  customerId: string | null
  orderId: string
  /** Null where the checkout has no amount (a subscription's trial, a card saved). */
  amount: MinorAmount | null
  /** False while the payment is still to come (a bank debit): the sign-up only. */
  paid: boolean
}

/** A payment with no reference (a subscription's invoice): credited by the earlier sign-up. */
export interface PaymentOnlyEvent extends Mode {
  kind: 'payment'
  customerId: string | null
  orderId: string
  amount: MinorAmount
}

/** A refund of an order; `refundId` is its idempotency key. */
export interface RefundEvent extends Mode {
  kind: 'refund'
  orderId: string
  refundId: string
  amount: MinorAmount | null
}

/** What one event asks of the referral service. Ids are the provider's own; credit.ts prefixes them. */
export type PaymentEvent = IgnoredEvent | CheckoutEvent | PaymentOnlyEvent | RefundEvent

/** A delivery whose signature does not hold, or whose body is not what the provider sends. */
export type Refusal = { error: 'signature_invalid' | 'body_invalid' }

export interface PaymentProvider {
  /** Starts the buyer's user id and the order ids it gives the service: `stripe:cus_…`. */
  prefix: 'stripe' | 'paddle' | 'lemonsqueezy'
  /** The request header carrying the signature (lower case). */
  signatureHeader: string
  /** Checks the signature over the raw body; the parsed body when it holds. */
  verify(
    body: { text: string; bytes: Uint8Array<ArrayBuffer> },
    signature: string,
  ): Promise<Refusal | { body: unknown }>
  /** What the verified body asks; null when it is not the shape this provider sends. */
  read(body: unknown): PaymentEvent | null
}

/** What every webhook handler takes besides its provider's own options. */
export interface WebhookOptions extends ServiceOptions {
  /**
   * The longest the referral service may take over one delivery, retries included, before the
   * handler answers 503 so the provider delivers it again. Default: under the provider's own
   * wait (8,000 ms for Stripe and Lemon Squeezy, 4,000 for Paddle, which waits 5 s).
   */
  timeoutMs?: number
  /**
   * Told of every delivery answered 503, with the error behind it (a RecordSignupError, …),
   * and of a value the service cannot take (400). Default: console.error, with `[referral]`.
   */
  onError?: (error: unknown) => void
}
