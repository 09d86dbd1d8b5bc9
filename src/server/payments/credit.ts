// What a provider's event becomes at the referral service, the same for every provider: the
// buyer's sign-up with the checkout's referral, the purchase, the refund. Every call is
// idempotent at the service (the sign-up's event id comes from the user id, the purchase's from
// the order id, the refund's from its own id), so a delivery repeated, or ten at once, counts once.

import { readCheckoutReference } from '../../api/checkout-reference.ts'
import { REFERRER_ID_PATTERN } from '../../api/wire.ts'
import { ServerConfigError } from '../errors.ts'
import type { Attribution } from '../read-attribution.ts'
import { type PurchaseResult, recordPurchase } from '../record-purchase.ts'
import { type RefundResult, recordRefund } from '../record-refund.ts'
import { recordSignup } from '../record-signup.ts'
import { toMajorUnits } from './currency.ts'
import type { MinorAmount, PaymentEvent, PaymentProvider, WebhookOptions } from './type.ts'

/** The answer to a delivery that was read: what became of it. */
export type Outcome = { outcome: 'recorded' | 'duplicate' } | { outcome: 'ignored'; reason: string }

const ignored = (reason: string): Outcome => ({ outcome: 'ignored', reason })

/** The service's verdict as an outcome; a rejection (a self-referral, say) is read, not retried. */
const outcomeOf = (result: PurchaseResult | RefundResult): Outcome =>
  result.status === 'rejected'
    ? ignored(`rejected_${result.error.code}`)
    : { outcome: result.status === 'accepted' ? 'recorded' : 'duplicate' }

/**
 * The first reference that reads; else why none does, a damaged reference (`check_failed`,
 * `unknown_version`) told before another value in a slot (`malformed`: the site's own id in
 * client_reference_id, say); else `absent`.
 */
async function referralOf(references: unknown[]) {
  let problem: string | undefined
  for (const text of references) {
    const read = await readCheckoutReference(text)
    if (!('problem' in read)) return read
    if (read.problem === 'absent') continue
    if (problem === undefined || problem === 'malformed') problem = read.problem
  }
  return { problem: problem ?? 'absent' }
}

/** An id for the service; a ServerConfigError (400 body_invalid) when it cannot be one. */
function prefixed(prefix: string, id: string, option: string): string {
  const value = `${prefix}:${id}`
  if (!REFERRER_ID_PATTERN.test(value)) {
    throw new ServerConfigError(
      option,
      `[referral] the event's ${option} is not one the service takes.`,
    )
  }
  return value
}

const major = ({ minor, currency }: MinorAmount) => {
  const code = currency.toUpperCase()
  return { amount: toMajorUnits(minor, code), currency: code }
}

/**
 * Records what `event` asks, within `deadline` (on `options.now`'s clock), and says what became
 * of it. Throws the record functions' errors (the handler answers 503, or 400 for a
 * ServerConfigError about a value of the event).
 */
export async function credit(
  provider: PaymentProvider,
  event: PaymentEvent,
  options: WebhookOptions,
  deadline: number,
): Promise<Outcome> {
  if (event.kind === 'ignored' && event.reason === 'event_unused') return ignored(event.reason)
  // Test events at a live key (or the reverse) belong to the other world: never credited there.
  const live = options.secretKey.startsWith('sk_live_')
  if (event.live !== undefined && event.live !== live) return ignored('mode_mismatch')
  if (event.kind === 'ignored') return ignored(event.reason)

  const now = options.now ?? Date.now
  // Each call gets what is left of the one budget: the provider waits for the whole delivery.
  const { secretKey, apiBase, fetch, sleep, random } = options
  const service = () => ({
    secretKey,
    apiBase,
    now,
    ...(fetch ? { fetch } : {}),
    ...(sleep ? { sleep } : {}),
    ...(random ? { random } : {}),
    timeoutMs: Math.max(1, deadline - now()),
  })
  const { prefix } = provider

  if (event.kind === 'refund') {
    const money = event.amount && event.amount.minor > 0 ? major(event.amount) : {}
    const result = await recordRefund({
      ...service(),
      orderId: prefixed(prefix, event.orderId, 'orderId'),
      refundId: prefixed(prefix, event.refundId, 'refundId'),
      ...money,
    })
    return outcomeOf(result)
  }

  let attribution: Attribution | null = null
  if (event.kind === 'checkout') {
    const referral = await referralOf(event.references)
    if ('problem' in referral) {
      return ignored(
        referral.problem === 'absent' ? 'no_reference' : `reference_${referral.problem}`,
      )
    }
    // The capture time is not sent with a sign-up; the attribution's shape asks for one.
    attribution = { ...referral, capturedAt: new Date(now()).toISOString() }
  }
  if (event.customerId === null) return ignored('no_customer')
  const userId = prefixed(prefix, event.customerId, 'userId')

  if (attribution) {
    // The referral is kept for this customer at the service: a later payment without a reference
    // (a trial's first invoice, a renewal) is credited by it. A rejection (a self-referral) is the
    // service's word on the referral; the purchase below is still the service's to judge.
    await recordSignup({ ...service(), userId, attribution })
  }
  if (event.kind === 'checkout' && !event.paid) return ignored('not_paid')
  if (event.amount === null || event.amount.minor <= 0) return ignored('zero_amount')
  const result = await recordPurchase({
    ...service(),
    userId,
    orderId: prefixed(prefix, event.orderId, 'orderId'),
    ...major(event.amount),
    attribution,
  })
  return outcomeOf(result)
}
