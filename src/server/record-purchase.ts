// Records a purchase from the site's backend (a service extension, docs/CONTRACT.md
// "Purchases"). A purchase is the site's word, never a page's: only a secret key may record one,
// and the widget has no browser call for it. One event per order: its id is derived from the order
// id, which the service also treats as the purchase's idempotency key.

import { CURRENCY_PATTERN } from '../api/referrer-wire.ts'
import { ORDER_ID_PATTERN } from '../api/wire.ts'
import { RecordPurchaseError, ServerConfigError } from './errors.ts'
import { postExtensionEvent } from './extension.ts'
import { purchaseEventId } from './ids.ts'
import { checkRecordOptions, quote, type RecordOptions } from './options.ts'

export interface RecordPurchaseOptions extends RecordOptions {
  /** The buyer's id in your system: the id their sign-up was recorded with. */
  userId: string
  /** Your order's id (1-128 of `A-Z a-z 0-9 _ . : @ -`): one order counts once. */
  orderId: string
  /** The order's amount, a positive number, in `currency`. */
  amount: number
  /** ISO 4217, three upper-case letters (`EUR`). */
  currency: string
}

export type PurchaseResult =
  | { status: 'accepted' | 'duplicate'; eventId: string; orderId: string }
  | {
      status: 'rejected'
      eventId: string
      orderId: string
      error: { code: string; message: string; param?: string | undefined }
    }

function checkPurchase(options: RecordPurchaseOptions) {
  const { orderId, amount, currency } = options
  if (typeof orderId !== 'string' || !ORDER_ID_PATTERN.test(orderId)) {
    throw new ServerConfigError(
      'orderId',
      `[referral] orderId must be 1-128 of A-Z a-z 0-9 _ . : @ -, not ${quote(orderId)}.`,
    )
  }
  if (typeof amount !== 'number' || !Number.isFinite(amount) || !(amount > 0)) {
    throw new ServerConfigError(
      'amount',
      `[referral] amount must be a positive finite number, not ${quote(amount)}.`,
    )
  }
  if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
    throw new ServerConfigError(
      'currency',
      `[referral] currency must be an ISO 4217 code of three upper-case letters (EUR), not ${quote(currency)}.`,
    )
  }
  return { orderId, amount, currency }
}

/**
 * Posts one purchase event with a secret key and resolves to the service's verdict on it:
 * `accepted`, `duplicate` (this order was recorded already) or `rejected`. Retries as
 * recordSignup does until `timeoutMs`. Rejects with RecordPurchaseError when no verdict came in
 * time (`timeout`), the whole request was refused (`refused`, e.g. a 401), or the service does not
 * take purchases (`unsupported`); throws ServerConfigError before any request for a bad option or
 * inside a browser page.
 */
export async function recordPurchase(options: RecordPurchaseOptions): Promise<PurchaseResult> {
  const { secretKey, userId, attribution, url, fetchImpl } = checkRecordOptions(
    'recordPurchase',
    options,
    'Record purchases from your server, where the secret key lives.',
  )
  const { orderId, amount, currency } = checkPurchase(options)
  const now = options.now ?? Date.now
  const eventId = await purchaseEventId(orderId)
  const event = {
    id: eventId,
    type: 'purchase',
    userId,
    orderId,
    amount,
    currency,
    ...(attribution ? { code: attribution.code, visitorId: attribution.visitorId } : {}),
    occurredAt: new Date(now()).toISOString(),
  }
  const verdict = await postExtensionEvent(
    'purchases',
    {
      ...{ event, url, secretKey, fetchImpl, options, request: 'purchase' },
      what: `the purchase of order ${quote(orderId)}`,
    },
    (failure) => new RecordPurchaseError({ ...failure, eventId, orderId }),
  )
  return { ...verdict, eventId, orderId }
}
